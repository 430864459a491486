import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { UNKNOWN_ID, config, createType } from './fixtures';

const STEEP = { defaultValue: 45, isFixed: false, max: 60, min: 35, stepSize: 1 };
const SADDLE = { defaultValue: 30, isFixed: false, max: 40, min: 20, stepSize: 1 };
const FLAT = { defaultValue: 0, isFixed: false, max: 0, min: 0, stepSize: 1 };
const FLOOR = { defaultValue: 260, isFixed: false, max: 300, min: 240, stepSize: 1 };

describe('type variables over REST (section 4.8)', () => {
  let server: TestServer;
  let a: TestTenant;
  let type: any;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Variables');
    type = await createType(a.client, server.app.schema);
  });
  afterAll(() => server.close());

  describe('POST /types/variables/resolve/{typeId}', () => {
    const resolve = (body: unknown, typeId = type.id) =>
      a.client.post(`/types/variables/resolve/${typeId}`, body);

    it('answers {id, configuration} for every variable; a branch whose choices all match wins', async () => {
      const res = await resolve([
        { code: 'STEEP', option: 'Pitch' },
        { code: 'SADDLE', option: 'Roof' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: 'roofPitch', configuration: STEEP },
        { id: 'floorHeight', configuration: FLOOR },
        { id: 'RoofOverhang', configuration: null },
      ]);
    });

    it('a partial match falls through to a later branch, then to the default', async () => {
      const partial = await resolve([{ code: 'SADDLE', option: 'Roof' }]);
      expect(partial.body[0]).toEqual({ id: 'roofPitch', configuration: SADDLE });
      const onlyPitch = await resolve([{ code: 'STEEP', option: 'Pitch' }]);
      expect(onlyPitch.body[0]).toEqual({ id: 'roofPitch', configuration: FLAT });
      const none = await resolve([]);
      expect(none.body[0]).toEqual({ id: 'roofPitch', configuration: FLAT });
      const noBody = await a.client.post(`/types/variables/resolve/${type.id}`);
      expect(noBody.status).toBe(200);
      expect(noBody.body[0].configuration).toEqual(FLAT);
    });

    it('unknown codes and options, or the right code under another option, match nothing', async () => {
      const res = await resolve([
        { code: 'NOPE', option: 'Roof' },
        { code: 'SADDLE', option: 'Facade' },
        { code: 'SADDLE', option: 'roof' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body[0]).toEqual({ id: 'roofPitch', configuration: FLAT });
    });

    it('a branch without choices always applies; extra selections do not hurt', async () => {
      const t = await createType(a.client, server.app.schema, {
        name: 'Catch-all',
        variables: [
          {
            id: 'width',
            tree: {
              branches: [
                { choices: [{ code: 'WIDE', option: 'Size' }], result: config(9, 8, 10) },
                { choices: [], result: config(6, 5, 7) },
              ],
              decisionTree: { result: config(1, 1, 1) },
            },
          },
        ],
      });
      const wide = await resolve(
        [
          { code: 'WIDE', option: 'Size' },
          { code: 'RED', option: 'Colour' },
        ],
        t.id,
      );
      expect(wide.body).toEqual([{ id: 'width', configuration: config(9, 8, 10) }]);
      const other = await resolve([{ code: 'NARROW', option: 'Size' }], t.id);
      expect(other.body).toEqual([{ id: 'width', configuration: config(6, 5, 7) }]);
    });

    it('404 for unknown or malformed type ids; 400 for malformed selections', async () => {
      expectErrorBody(await resolve([], UNKNOWN_ID), 404);
      expectErrorBody(await resolve([], 'not-an-id'), 404);
      expectErrorBody(await resolve([{ code: 'X' }]), 400);
      expectErrorBody(await resolve([{ code: 1, option: 'Roof' }]), 400);
      // Unknown fields of the choices are ignored.
      const extra = await resolve([{ code: 'SADDLE', option: 'Roof', tenantId: UNKNOWN_ID }]);
      expect(extra.status).toBe(200);
      expect(extra.body[0]).toEqual({ id: 'roofPitch', configuration: SADDLE });
    });
  });

  describe('GET /types/variables/{typeId}/search', () => {
    it('finds variables whose id contains the text, ignoring case, as {id, phase}', async () => {
      const res = await a.client.get(`/types/variables/${type.id}/search?search=ROOF`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: 'roofPitch', phase: 'DESIGN' },
        { id: 'RoofOverhang', phase: 'BUILD' },
      ]);
      const none = await a.client.get(`/types/variables/${type.id}/search?search=zzz`);
      expect(none.body).toEqual([]);
    });

    it('search is required; unknown types are 404', async () => {
      expectErrorBody(await a.client.get(`/types/variables/${type.id}/search`), 400);
      expectErrorBody(await a.client.get(`/types/variables/${type.id}/search?search=%20`), 400);
      expectErrorBody(await a.client.get(`/types/variables/${UNKNOWN_ID}/search?search=roof`), 404);
    });
  });

  describe('GET /types/variables/{typeId}/{variableId}', () => {
    it('answers {id, phase, tree} with the configuration results', async () => {
      const res = await a.client.get(`/types/variables/${type.id}/roofPitch`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: 'roofPitch',
        phase: 'DESIGN',
        tree: {
          branches: [
            {
              id: 'steep-saddle',
              choices: [
                { code: 'SADDLE', option: 'Roof' },
                { code: 'STEEP', option: 'Pitch' },
              ],
              result: STEEP,
            },
            { id: 'saddle', choices: [{ code: 'SADDLE', option: 'Roof' }], result: SADDLE },
          ],
          decisionTree: { id: 'flat', result: FLAT },
        },
      });
      const bare = await a.client.get(`/types/variables/${type.id}/RoofOverhang`);
      expect(bare.body).toEqual({ id: 'RoofOverhang', phase: 'BUILD', tree: null });
    });

    it('404 for an unknown variable or type', async () => {
      expectErrorBody(await a.client.get(`/types/variables/${type.id}/roofpitch`), 404);
      expectErrorBody(await a.client.get(`/types/variables/${UNKNOWN_ID}/roofPitch`), 404);
      expectErrorBody(await a.client.get(`/types/variables/garbage/roofPitch`), 404);
    });
  });

  describe('PUT and DELETE /types/variables/{typeId}/{variableId}', () => {
    it('PUT renames and re-phases a variable, keeps its tree, returns the Type with an UPDATE event', async () => {
      const t = await createType(a.client, server.app.schema);
      const res = await a.client.put(`/types/variables/${t.id}/floorHeight`, {
        id: 'storeyHeight',
        phase: 'FINISH',
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(t.id);
      expect(res.body.name).toBe(t.name);
      expect(res.body.staticModels).toEqual(t.staticModels);
      expect(res.body.variables.map((v: any) => [v.id, v.phase])).toEqual([
        ['roofPitch', 'DESIGN'],
        ['storeyHeight', 'FINISH'],
        ['RoofOverhang', 'BUILD'],
      ]);
      expect(res.body.variables[1].tree).toEqual(t.variables[1].tree);
      expect(res.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
      expect(res.body.events[1]).toMatchObject({
        authorId: a.adminId,
        description: expect.stringContaining('variables'),
      });
      expect(res.body.updatedBy).toBe(a.adminEmail);

      expectErrorBody(await a.client.get(`/types/variables/${t.id}/floorHeight`), 404);
      expect((await a.client.get(`/types/variables/${t.id}/storeyHeight`)).body.phase).toBe('FINISH');

      const phaseOnly = await a.client.put(`/types/variables/${t.id}/storeyHeight`, { phase: 'PLAN' });
      expect(phaseOnly.body.variables[1]).toMatchObject({ id: 'storeyHeight', phase: 'PLAN' });
      const same = await a.client.put(`/types/variables/${t.id}/storeyHeight`, {
        id: 'storeyHeight',
        phase: 'PLAN',
      });
      expect(same.status).toBe(200);
      expect(same.body.events).toHaveLength(3);
    });

    it('PUT: 409 when the new id belongs to another variable; 400 for bad bodies; 404 for unknowns', async () => {
      const t = await createType(a.client, server.app.schema);
      const clash = await a.client.put(`/types/variables/${t.id}/floorHeight`, {
        id: 'roofPitch',
        phase: 'PLAN',
      });
      expectErrorBody(clash, 409);
      expectErrorBody(
        await a.client.put(`/types/variables/${t.id}/floorHeight`, { id: 'x', phase: 'LATER' }),
        400,
      );
      expectErrorBody(await a.client.put(`/types/variables/${t.id}/floorHeight`, { id: '' }), 400);
      expectErrorBody(await a.client.put(`/types/variables/${t.id}/floorHeight`, { id: '   ' }), 400);
      expectErrorBody(await a.client.put(`/types/variables/${t.id}/floorHeight`, { id: 7 }), 400);
      expectErrorBody(await a.client.put(`/types/variables/${t.id}/nope`, { phase: 'PLAN' }), 404);
      expectErrorBody(
        await a.client.put(`/types/variables/${UNKNOWN_ID}/floorHeight`, { phase: 'PLAN' }),
        404,
      );
      const unchanged = await a.client.get(`/types/variables/${t.id}/floorHeight`);
      expect(unchanged.body.phase).toBe('PLAN');
    });

    it('DELETE removes the variable and returns the Type with an UPDATE event; then 404', async () => {
      const t = await createType(a.client, server.app.schema);
      const res = await a.client.delete(`/types/variables/${t.id}/roofPitch`);
      expect(res.status).toBe(200);
      expect(res.body.variables.map((v: any) => v.id)).toEqual(['floorHeight', 'RoofOverhang']);
      expect(res.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
      expectErrorBody(await a.client.delete(`/types/variables/${t.id}/roofPitch`), 404);
      const resolved = await a.client.post(`/types/variables/resolve/${t.id}`, []);
      expect(resolved.body.map((v: any) => v.id)).toEqual(['floorHeight', 'RoofOverhang']);
    });
  });

  it('each operation needs its TYPES permission', async () => {
    const reader = await a.userWith(['READ_TYPES']);
    expect((await reader.client.post(`/types/variables/resolve/${type.id}`, [])).status).toBe(200);
    expect((await reader.client.get(`/types/variables/${type.id}/search?search=a`)).status).toBe(200);
    expect((await reader.client.get(`/types/variables/${type.id}/roofPitch`)).status).toBe(200);
    expectErrorBody(await reader.client.put(`/types/variables/${type.id}/roofPitch`, { phase: 'PLAN' }), 403);
    expectErrorBody(await reader.client.delete(`/types/variables/${type.id}/roofPitch`), 403);

    const updater = await a.userWith(['UPDATE_TYPES']);
    expectErrorBody(await updater.client.post(`/types/variables/resolve/${type.id}`, []), 403);
    expectErrorBody(await updater.client.get(`/types/variables/${type.id}/roofPitch`), 403);
    expectErrorBody(await updater.client.delete(`/types/variables/${type.id}/roofPitch`), 403);
    const put = await updater.client.put(`/types/variables/${type.id}/RoofOverhang`, { phase: 'FINISH' });
    expect(put.status).toBe(200);

    const deleter = await a.userWith(['DELETE_TYPES']);
    expectErrorBody(
      await deleter.client.put(`/types/variables/${type.id}/roofPitch`, { phase: 'PLAN' }),
      403,
    );
    expect((await deleter.client.delete(`/types/variables/${type.id}/RoofOverhang`)).status).toBe(200);
    expectErrorBody(await a.client.withToken(undefined).get(`/types/variables/${type.id}/roofPitch`), 401);
  });

  it("another tenant sees none of a tenant's types: every operation is 404 and nothing changes", async () => {
    const t = await createType(a.client, server.app.schema);
    const b = await server.tenant('Intruder');
    expectErrorBody(await b.client.post(`/types/variables/resolve/${t.id}`, []), 404);
    expectErrorBody(await b.client.get(`/types/variables/${t.id}/search?search=roof`), 404);
    expectErrorBody(await b.client.get(`/types/variables/${t.id}/roofPitch`), 404);
    expectErrorBody(await b.client.put(`/types/variables/${t.id}/roofPitch`, { id: 'hijacked' }), 404);
    expectErrorBody(await b.client.delete(`/types/variables/${t.id}/roofPitch`), 404);
    const mine = await a.client.get(`/types/variables/${t.id}/roofPitch`);
    expect(mine.status).toBe(200);
    const events = await a.client.graphql(
      `query($id: ID!) { configuratorType(id: $id) { events { type } } }`,
      {
        id: t.id,
      },
    );
    expect(events.body.data.configuratorType.events).toEqual([{ type: 'CREATE' }]);
  });
});
