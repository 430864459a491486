import { storedFile } from '../support/files';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { ISO, UNKNOWN_ID, UUID, createType } from './fixtures';

const COVERAGE_FIELDS = [
  'id',
  'tenantId',
  'typeId',
  'productName',
  'linkedProductId',
  'staticModelTreeId',
  'variantId',
  'complete',
  'glbComplete',
  'rvtComplete',
  'modelType',
  'parameters',
  'projectIds',
  'assets',
  'totalFileSize',
  'events',
  'created',
  'createdBy',
  'updated',
  'updatedBy',
];

/**
 * A stored file of `fileSize` bytes named `name`, uploaded for the tenant: a coverage's flags and
 * size follow from what is stored. A .glb of 8 bytes or more starts as a binary glTF does.
 */
async function asset(server: TestServer, t: TestTenant, name: string, fileSize: number) {
  const content = Buffer.alloc(fileSize, 0);
  if (name.endsWith('.glb') && fileSize >= 12)
    Buffer.from([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0]).copy(content);
  return (await storedFile(server.baseUrl, t, { name, type: 'application/octet-stream', content })).file;
}

describe('type product coverages over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let typeA: any;
  let typeB: any;

  const create = async (t: TestTenant, input: Record<string, unknown>) => {
    const res = await t.client.graphql(
      `mutation($input: CreateTypeProductCoverageInput!) { createTypeProductCoverage(input: $input) { id } }`,
      { input },
    );
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data!.createTypeProductCoverage.id as string;
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Coverages');
    typeA = await createType(a.client, server.app.schema, { name: 'Type A' });
    typeB = await createType(a.client, server.app.schema, { name: 'Type B' });
  });
  afterAll(() => server.close());

  it('shows every documented field; flags and size follow from the assets', async () => {
    const glb = await asset(server, a, 'house.glb', 1000);
    const rvt = await asset(server, a, 'house.RVT', 2500);
    const full = await create(a, {
      typeId: typeA.id,
      productName: 'A-Flat-BRICK',
      staticModelTreeId: 'sm-main',
      variantId: 'flat/Facade=BRICK',
      modelType: 'CONCEPT',
      parameters: [{ name: 'height', type: 'number', value: 9 }],
      projectIds: ['p-1'],
      // What the request says of a file is replaced by what is stored.
      assets: [
        { ...glb, fileSize: 1 },
        { ...rvt, type: 'IMAGE' },
      ],
    });
    const res = await a.client.get(`/type-product-coverages/find?ids=${full}`);
    expect(res.status).toBe(200);
    const c = res.body[0];
    expect(Object.keys(c).sort()).toEqual([...COVERAGE_FIELDS].sort());
    expect(c).toEqual({
      id: full,
      tenantId: a.tenantId,
      typeId: typeA.id,
      productName: 'A-Flat-BRICK',
      linkedProductId: null,
      staticModelTreeId: 'sm-main',
      variantId: 'flat/Facade=BRICK',
      complete: true,
      glbComplete: true,
      rvtComplete: true,
      modelType: 'CONCEPT',
      parameters: [{ name: 'height', type: 'number', value: 9 }],
      projectIds: ['p-1'],
      assets: [glb, rvt],
      totalFileSize: 3500,
      events: [
        expect.objectContaining({ type: 'CREATE', authorId: a.adminId, date: expect.stringMatching(ISO) }),
      ],
      created: expect.stringMatching(ISO),
      createdBy: a.adminEmail,
      updated: expect.stringMatching(ISO),
      updatedBy: a.adminEmail,
    });

    const bare = await create(a, { typeId: typeA.id });
    const b = (await a.client.get(`/type-product-coverages/find/${bare}`)).body;
    expect(b).toMatchObject({
      productName: null,
      linkedProductId: null,
      modelType: null,
      complete: false,
      glbComplete: false,
      rvtComplete: false,
      parameters: [],
      projectIds: [],
      assets: [],
      totalFileSize: 0,
    });

    const update = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateTypeProductCoverageInput!) { updateTypeProductCoverage(id: $id, input: $input) { glbComplete rvtComplete complete totalFileSize events { type description } } }`,
      { id: bare, input: { assets: [await asset(server, a, 'only.glb', 10)] } },
    );
    expect(update.body.data.updateTypeProductCoverage).toMatchObject({
      glbComplete: true,
      rvtComplete: false,
      complete: false,
      totalFileSize: 10,
      events: [{ type: 'CREATE' }, { type: 'UPDATE', description: expect.stringContaining('assets') }],
    });
  });

  it('refuses references to records the tenant does not have, and derived flags as input', async () => {
    for (const input of [
      { typeId: UNKNOWN_ID },
      { typeId: 'nope' },
      { typeId: typeA.id, linkedProductId: UNKNOWN_ID },
      { typeId: typeA.id, complete: true },
    ]) {
      const res = await a.client.graphql(
        `mutation($input: CreateTypeProductCoverageInput!) { createTypeProductCoverage(input: $input) { id } }`,
        { input },
      );
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
    }
  });

  describe('the family operations', () => {
    let t: TestTenant;
    let tA: any;
    let ids: Record<string, string>;

    beforeAll(async () => {
      t = await server.tenant('Family');
      tA = await createType(t.client, server.app.schema, { name: 'Family type' });
      ids = {};
      for (const [name, assets] of [
        ['Alpha', [await asset(server, t, 'a.glb', 5), await asset(server, t, 'a.rvt', 5)]],
        ['Bravo', [await asset(server, t, 'b.glb', 50)]],
        ['Charlie', []],
        ['=cmd|x', []],
      ] as const) {
        ids[name] = await create(t, { typeId: tA.id, productName: name, assets });
      }
    });

    it('S1 /find?ids= in the order asked, unknown skipped, ids required; S3 /find/{id} (extension)', async () => {
      const res = await t.client.get(
        `/type-product-coverages/find?ids=${ids.Bravo},${UNKNOWN_ID}&ids=${ids.Alpha}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.map((c: any) => c.productName)).toEqual(['Bravo', 'Alpha']);
      expectErrorBody(await t.client.get('/type-product-coverages/find'), 400);
      expect((await t.client.get(`/type-product-coverages/find/${ids.Charlie}`)).body.productName).toBe(
        'Charlie',
      );
      expectErrorBody(await t.client.get(`/type-product-coverages/find/${UNKNOWN_ID}`), 404);
    });

    it('S2 /find-all and S4 /find-list (ids optional)', async () => {
      const all = await t.client.get('/type-product-coverages/find-all');
      expect(all.body.map((c: any) => c.productName)).toEqual(['Alpha', 'Bravo', 'Charlie', '=cmd|x']);
      expect((await t.client.get('/type-product-coverages/find-list')).body).toEqual([]);
      const list = await t.client.get(`/type-product-coverages/find-list?ids=${ids.Charlie}`);
      expect(list.body.map((c: any) => c.productName)).toEqual(['Charlie']);
    });

    it('S6 GET and S7 POST /dynamic-search filter, search and sort; unknown fields are 400', async () => {
      const get = await t.client.get(
        '/type-product-coverages/dynamic-search?filters=glbComplete:eq:true&sort=totalFileSize,desc',
      );
      expect(get.status).toBe(200);
      expect(get.body).toMatchObject({ totalElements: 2, number: 0, size: 20, pageable: { paged: true } });
      expect(get.body.content.map((c: any) => c.productName)).toEqual(['Bravo', 'Alpha']);
      const search = await t.client.get('/type-product-coverages/dynamic-search?search=ARL');
      expect(search.body.content.map((c: any) => c.productName)).toEqual(['Charlie']);
      const post = await t.client.post('/type-product-coverages/dynamic-search', {
        filters: { complete: false, totalFileSize: { lt: 100 } },
        sort: [{ field: 'productName', ascending: true }],
        size: 2,
      });
      expect(post.status).toBe(200);
      expect(post.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2 });
      expect(post.body.content.map((c: any) => c.productName)).toEqual(['=cmd|x', 'Bravo']);
      expectErrorBody(await t.client.get('/type-product-coverages/dynamic-search?filters=nope:eq:1'), 400);
      expectErrorBody(
        await t.client.post('/type-product-coverages/dynamic-search', { filters: { complete: 'x' } }),
        400,
      );
    });

    it('S8 /csv-export answers a JSON string of CSV, neutralising formulas', async () => {
      const res = await t.client.get('/type-product-coverages/csv-export?sort=productName,asc');
      expect(res.status).toBe(200);
      expect(typeof res.body).toBe('string');
      const [header, ...rows] = res.body.trim().split('\r\n');
      expect(header.split(',')).toEqual(
        expect.arrayContaining(['productName', 'complete', 'totalFileSize', 'typeId']),
      );
      expect(rows).toHaveLength(4);
      expect(rows[0]).toContain(`'=cmd|x`);
    });

    it('S9 /delete-list deletes those named (204), skips unknown ids, needs ids', async () => {
      const extra = await create(t, { typeId: tA.id, productName: 'Doomed' });
      const res = await t.client.delete(`/type-product-coverages/delete-list?ids=${extra},${UNKNOWN_ID}`);
      expect(res.status).toBe(204);
      expect((await t.client.get(`/type-product-coverages/find?ids=${extra}`)).body).toEqual([]);
      expectErrorBody(await t.client.delete('/type-product-coverages/delete-list'), 400);
    });
  });

  describe('POST /type-product-coverages/find-by-names/{typeId}', () => {
    it('answers the coverages of that type with those names, in the order of the names', async () => {
      const t = await server.tenant('Names');
      const one = await createType(t.client, server.app.schema, { name: 'One' });
      const two = await createType(t.client, server.app.schema, { name: 'Two' });
      await create(t, { typeId: one.id, productName: 'P1' });
      await create(t, { typeId: one.id, productName: 'P2' });
      await create(t, { typeId: two.id, productName: 'P1' });
      const res = await t.client.post(`/type-product-coverages/find-by-names/${one.id}`, ['P2', 'P1', 'P9']);
      expect(res.status).toBe(200);
      expect(res.body.map((c: any) => [c.productName, c.typeId])).toEqual([
        ['P2', one.id],
        ['P1', one.id],
      ]);
      expect(Object.keys(res.body[0]).sort()).toEqual([...COVERAGE_FIELDS].sort());
      expect((await t.client.post(`/type-product-coverages/find-by-names/${one.id}`, [])).body).toEqual([]);
      expectErrorBody(
        await t.client.post(`/type-product-coverages/find-by-names/${UNKNOWN_ID}`, ['P1']),
        404,
      );
      expectErrorBody(
        await t.client.post(`/type-product-coverages/find-by-names/${one.id}`, [{ name: 'P1' }]),
        400,
      );
    });
  });

  describe('POST /type-product-coverages/create-products', () => {
    it('creates and links a product per unlinked coverage of the search page, and says how many', async () => {
      const t = await server.tenant('Products');
      const type = await createType(t.client, server.app.schema, { name: 'Product type' });
      const other = await createType(t.client, server.app.schema, { name: 'Other type' });
      const c1 = await create(t, { typeId: type.id, productName: 'House-1' });
      const c2 = await create(t, { typeId: type.id, productName: 'House-2' });
      const twin = await create(t, { typeId: type.id, productName: 'House-2' });
      const nameless = await create(t, { typeId: type.id });
      const elsewhere = await create(t, { typeId: other.id, productName: 'Elsewhere' });

      const res = await t.client.post(`/type-product-coverages/create-products?filters=typeId:eq:${type.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toBe(2);

      const rows = (
        await t.client.get(`/type-product-coverages/find?ids=${c1},${c2},${twin},${nameless},${elsewhere}`)
      ).body;
      const [r1, r2, rTwin, rNameless, rElsewhere] = rows;
      expect(r1.linkedProductId).toMatch(UUID);
      expect(r2.linkedProductId).toMatch(UUID);
      expect(rTwin.linkedProductId).toBe(r2.linkedProductId);
      expect(rNameless.linkedProductId).toBeNull();
      expect(rElsewhere.linkedProductId).toBeNull();
      expect(r1.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);

      const product = await t.client.graphql(
        `query($id: ID!) { product(id: $id) { name productType category createdBy } }`,
        { id: r1.linkedProductId },
      );
      expect(product.body.data.product).toEqual({
        name: 'House-1',
        productType: 'FINISHED_GOOD',
        category: 'Product type',
        createdBy: t.adminEmail,
      });

      expect(
        (await t.client.post(`/type-product-coverages/create-products?filters=typeId:eq:${type.id}`)).body,
      ).toBe(0);
      const paged = await t.client.post(
        '/type-product-coverages/create-products?size=1&sort=productName,asc',
      );
      expect(paged.body).toBe(1);
      expect(
        (await t.client.get(`/type-product-coverages/find?ids=${elsewhere}`)).body[0].linkedProductId,
      ).toMatch(UUID);
      expectErrorBody(await t.client.post('/type-product-coverages/create-products?filters=bogus:eq:1'), 400);
      expectErrorBody(await t.client.post('/type-product-coverages/create-products?size=0'), 400);
    });
  });

  it('needs the COVERAGES permissions', async () => {
    const id = await create(a, { typeId: typeA.id, productName: 'Guarded' });
    const reader = await a.userWith(['READ_COVERAGES']);
    expect((await reader.client.get('/type-product-coverages/find-all')).status).toBe(200);
    expect(
      (await reader.client.post(`/type-product-coverages/find-by-names/${typeA.id}`, ['Guarded'])).status,
    ).toBe(200);
    expectErrorBody(await reader.client.post('/type-product-coverages/create-products'), 403);
    expectErrorBody(await reader.client.delete(`/type-product-coverages/delete-list?ids=${id}`), 403);
    const typesOnly = await a.userWith(['READ_TYPES']);
    expectErrorBody(await typesOnly.client.get('/type-product-coverages/find-all'), 403);
    expectErrorBody(await typesOnly.client.get('/type-product-coverages/csv-export'), 403);
    expectErrorBody(await typesOnly.client.post('/type-product-coverages/dynamic-search', {}), 403);
    expect((await a.client.get(`/type-product-coverages/find?ids=${id}`)).body).toHaveLength(1);
  });

  it("keeps tenants apart: another tenant can neither read, list, export, link nor delete a tenant's coverages", async () => {
    const id = await create(a, { typeId: typeB.id, productName: 'Secret' });
    const b = await server.tenant('Outsider');
    expect((await b.client.get(`/type-product-coverages/find?ids=${id}`)).body).toEqual([]);
    expect((await b.client.get(`/type-product-coverages/find-list?ids=${id}`)).body).toEqual([]);
    expect((await b.client.get('/type-product-coverages/find-all')).body).toEqual([]);
    expect((await b.client.get('/type-product-coverages/dynamic-search')).body.totalElements).toBe(0);
    expect((await b.client.post('/type-product-coverages/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/type-product-coverages/csv-export')).body).not.toContain('Secret');
    expectErrorBody(await b.client.get(`/type-product-coverages/find/${id}`), 404);
    expectErrorBody(
      await b.client.post(`/type-product-coverages/find-by-names/${typeB.id}`, ['Secret']),
      404,
    );
    expect((await b.client.post('/type-product-coverages/create-products')).body).toBe(0);
    expect((await b.client.delete(`/type-product-coverages/delete-list?ids=${id}`)).status).toBe(204);
    const mine = (await a.client.get(`/type-product-coverages/find?ids=${id}`)).body;
    expect(mine).toHaveLength(1);
    expect(mine[0].linkedProductId).toBeNull();
  });
});
