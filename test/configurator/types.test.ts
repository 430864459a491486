import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { ISO, UNKNOWN_ID, UUID, createType, fieldsOf, sampleType } from './fixtures';

/** Configurator types through GraphQL (the specification has no REST family for them). */
describe('configurator types over GraphQL', () => {
  let server: TestServer;
  let a: TestTenant;
  let typeFields: string;

  const gql = (t: TestTenant, query: string, variables?: Record<string, unknown>) =>
    t.client.graphql(query, variables);

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Types');
    typeFields = fieldsOf(server.app.schema, 'ConfiguratorType');
  });
  afterAll(() => server.close());

  it('createConfiguratorType stores every documented field, with both names of each boolean pair', async () => {
    const { file: preview } = await storedFile(server.baseUrl, a, { name: 'preview.png' });
    const t = await createType(a.client, server.app.schema, {
      ...sampleType(),
      previewBlob: { ...preview, fileSize: 1234, created: '2026-01-01T00:00:00.000Z' },
    });
    expect(Object.keys(t).sort()).toEqual(
      [
        'id',
        'tenantId',
        'name',
        'color',
        'concept',
        'elementNamePrefix',
        'variantSuffixFormat',
        'compensateNulpunt',
        'hideBaseOptionInName',
        'enforcedCategories',
        'previewBlob',
        'baseVariables',
        'variables',
        'options',
        'models',
        'massModel',
        'restrictions',
        'staticModels',
        'views',
        'totalStaticModels',
        'totalStaticModelsComplete',
        'totalStaticModelsFileSize',
        'totalStaticModelsGlbInDb',
        'totalStaticModelsInDb',
        'totalStaticModelsRvtInDb',
        'created',
        'createdBy',
        'updated',
        'updatedBy',
        'events',
      ].sort(),
    );
    expect(t).toMatchObject({
      id: expect.stringMatching(UUID),
      tenantId: a.tenantId,
      name: 'Row house T1',
      color: '#aa0000',
      concept: 'ROW',
      compensateNulpunt: true,
      hideBaseOptionInName: false,
      enforcedCategories: ['facade'],
      // The stored file's size and time, not the request's.
      previewBlob: {
        blobId: preview.blobId,
        fileSize: preview.fileSize,
        type: 'IMAGE',
        created: preview.created,
      },
      baseVariables: [
        {
          id: 'wallThickness',
          configuration: { defaultValue: 30, isFixed: false, max: 50, min: 20, stepSize: 1 },
        },
      ],
      createdBy: a.adminEmail,
      created: expect.stringMatching(ISO),
      events: [expect.objectContaining({ type: 'CREATE', authorId: a.adminId })],
      totalStaticModels: 0,
      totalStaticModelsComplete: 0,
      totalStaticModelsFileSize: 0,
      totalStaticModelsGlbInDb: 0,
      totalStaticModelsInDb: 0,
      totalStaticModelsRvtInDb: 0,
    });
    expect(t.variables.map((v: any) => [v.id, v.phase])).toEqual([
      ['roofPitch', 'DESIGN'],
      ['floorHeight', 'PLAN'],
      ['RoofOverhang', 'BUILD'],
    ]);
    expect(t.variables[0].tree.branches[0]).toEqual({
      id: 'steep-saddle',
      choices: [
        { code: 'SADDLE', option: 'Roof' },
        { code: 'STEEP', option: 'Pitch' },
      ],
      result: { defaultValue: 45, isFixed: false, max: 60, min: 35, stepSize: 1 },
    });
    expect(t.variables[2].tree).toBeNull();

    // Options: the neighbour pair is filled under both names from either; entries get ids.
    expect(t.options[0]).toMatchObject({ id: 'opt-roof', isNeighborOption: false, neighborOption: false });
    expect(t.options[1]).toMatchObject({
      id: expect.stringMatching(UUID),
      name: 'Facade',
      isNeighborOption: true,
      neighborOption: true,
      activeViews: [],
      phase: null,
      visible: null,
    });
    expect(t.options[1].codes[0]).toEqual({
      code: 'BRICK',
      description: null,
      option: null,
      price: null,
      visible: null,
    });
    expect(t.models[0].models.branches[0].result).toMatchObject({
      id: 'wall-1',
      level: 0,
      material: 'brick',
      type: 'WALL',
      dimensions: { x: { formula: 'width', isConstant: false }, y: { formula: '0.3', isConstant: false } },
    });
    expect(t.models[0].models.decisionTree).toBeNull();
    expect(t.massModel[0].models.decisionTree.result).toMatchObject({ id: 'box-1', type: 'Box' });
    expect(t.massModel[0].models.decisionTree.result).not.toHaveProperty('material');
    expect(t.restrictions[0]).toMatchObject({ active: true, isActive: true, category: 'roof' });
    expect(t.restrictions[0].restrictions.branches[0].result.options).toEqual([
      { allowedCodes: ['FLAT'], optionName: 'Roof', reason: 'Wood carries no saddle roof' },
    ]);
    expect(t.views[0]).toMatchObject({ id: 'front', active: true, isActive: true, maxHeight: 12.5 });
    expect(t.staticModels[0]).toMatchObject({
      id: 'sm-main',
      modelNamePrefix: 'T1-',
      type: 'CONCEPT',
      nameOverrides: {},
      stats: null,
    });
    const variant = t.staticModels[0].models.branches[1].result;
    expect(variant).toEqual({
      id: 'saddle',
      name: 'Saddle',
      isEmpty: false,
      isExhaustive: false,
      exhaustiveOptions: [],
      parameters: [],
      position: null,
      rotation: null,
    });
  });

  it('a minimal type has [] for every collection and null for absent values', async () => {
    const t = await createType(a.client, server.app.schema, { name: 'Bare' });
    expect(t).toMatchObject({
      color: null,
      concept: null,
      previewBlob: null,
      compensateNulpunt: false,
      hideBaseOptionInName: false,
      enforcedCategories: [],
      baseVariables: [],
      variables: [],
      options: [],
      models: [],
      massModel: [],
      restrictions: [],
      staticModels: [],
      views: [],
    });
  });

  it('updateConfiguratorType replaces the collections given, keeps the others, appends an UPDATE event', async () => {
    const t = await createType(a.client, server.app.schema);
    const res = await gql(
      a,
      `mutation($id: ID!, $input: UpdateConfiguratorTypeInput!) { updateConfiguratorType(id: $id, input: $input) ${typeFields} }`,
      { id: t.id, input: { name: 'Renamed', views: [{ description: 'Top', active: false }] } },
    );
    expect(res.body.errors).toBeUndefined();
    const u = res.body.data.updateConfiguratorType;
    expect(u.name).toBe('Renamed');
    expect(u.views).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(UUID),
        active: false,
        isActive: false,
        activeCategories: [],
      }),
    ]);
    expect(u.variables).toEqual(t.variables);
    expect(u.staticModels).toEqual(t.staticModels);
    expect(u.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect(u.events[1].description).toContain('views');
    expect(u.events[1].description).toContain('name');
  });

  it('refuses duplicate variable ids, differing pair values and empty names with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', variables: [{ id: 'a' }, { id: 'a' }] }, 'variables[1].id'],
      [{ name: 'x', variables: [{ id: ' ' }] }, 'variables[0].id'],
      [{ name: 'x', staticModels: [{ id: 's' }, { id: 's' }] }, 'staticModels[1].id'],
      [{ name: 'x', options: [{ neighborOption: true, isNeighborOption: false }] }, 'options[0]'],
      [{ name: 'x', views: [{ active: true, isActive: false }] }, 'views[0]'],
      [{ name: 'x', staticModels: [{ id: 's', nameOverrides: { a: 1 } }] }, 'nameOverrides.a'],
      [{ name: '' }, 'name'],
      [{ name: 'x', variables: [{ id: 'v', phase: 'LATER' }] }, 'phase'],
    ];
    for (const [input, field] of cases) {
      const res = await gql(
        a,
        `mutation($input: CreateConfiguratorTypeInput!) { createConfiguratorType(input: $input) { id } }`,
        { input },
      );
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
      expect(res.body.errors?.[0].message).toContain(field);
    }
  });

  it('reads through the family: by id, list, search; deletes', async () => {
    const t = await createType(a.client, server.app.schema, { name: 'Searchable villa', concept: 'VILLA' });
    const res = await gql(
      a,
      `query($id: ID!) { configuratorType(id: $id) { id name } searchConfiguratorTypes(input: {search: ["villa"]}) { totalElements content { id } } }`,
      { id: t.id },
    );
    expect(res.body.data.configuratorType).toEqual({ id: t.id, name: 'Searchable villa' });
    expect(res.body.data.searchConfiguratorTypes.content).toEqual([{ id: t.id }]);
    const csv = await gql(a, `query { exportConfiguratorTypesCsv(input: {search: ["villa"]}) }`);
    const [header, row] = csv.body.data.exportConfiguratorTypesCsv.split('\r\n');
    expect(header.split(',')).toEqual(
      expect.arrayContaining(['name', 'concept', 'previewBlob.blobId', 'variables', 'totalStaticModels']),
    );
    expect(row).toContain('Searchable villa');
    const del = await gql(a, `mutation($id: ID!) { deleteConfiguratorType(id: $id) }`, { id: t.id });
    expect(del.body.data.deleteConfiguratorType).toBe(true);
    const again = await gql(a, `query($id: ID!) { configuratorType(id: $id) { id } }`, { id: t.id });
    expect(again.body.data.configuratorType).toBeNull();
  });

  it('needs the TYPES permissions', async () => {
    const t = await createType(a.client, server.app.schema, { name: 'Guarded' });
    const reader = await a.userWith(['READ_TYPES']);
    const read = await reader.client.graphql(`query($id: ID!) { configuratorType(id: $id) { id } }`, {
      id: t.id,
    });
    expect(read.body.data.configuratorType.id).toBe(t.id);
    const create = await reader.client.graphql(
      `mutation { createConfiguratorType(input: {name: "No"}) { id } }`,
    );
    expect(create.body.errors?.[0].extensions?.status).toBe(403);
    const nobody = await a.userWith(['READ_COVERAGES']);
    const denied = await nobody.client.graphql(`query($id: ID!) { configuratorType(id: $id) { id } }`, {
      id: t.id,
    });
    expect(denied.body.errors?.[0].extensions?.status).toBe(403);
  });

  it("keeps tenants apart: another tenant can neither read, list, update nor delete a tenant's type", async () => {
    const t = await createType(a.client, server.app.schema, { name: 'Private type' });
    const b = await server.tenant('Other');
    const res = await gql(
      b,
      `query($id: ID!, $ids: [ID!]!) { configuratorType(id: $id) { id } configuratorTypes(ids: $ids) { id } allConfiguratorTypes { id } }`,
      { id: t.id, ids: [t.id] },
    );
    expect(res.body.data).toEqual({
      configuratorType: null,
      configuratorTypes: [],
      allConfiguratorTypes: [],
    });
    const upd = await gql(
      b,
      `mutation($id: ID!) { updateConfiguratorType(id: $id, input: {name: "Hijack"}) { id } }`,
      {
        id: t.id,
      },
    );
    expect(upd.body.errors?.[0].extensions?.status).toBe(404);
    const del = await gql(b, `mutation($ids: [ID!]!) { deleteConfiguratorTypes(ids: $ids) }`, {
      ids: [t.id, UNKNOWN_ID],
    });
    expect(del.body.data.deleteConfiguratorTypes).toBe(0);
    const still = await gql(a, `query($id: ID!) { configuratorType(id: $id) { name } }`, { id: t.id });
    expect(still.body.data.configuratorType.name).toBe('Private type');
  });
});
