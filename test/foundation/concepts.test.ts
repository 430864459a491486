import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f-]{36}$/;

function expectConcept(c: any, name: string, buildingType: string | null) {
  expect(c).toEqual({
    id: expect.stringMatching(UUID),
    tenantId: expect.stringMatching(UUID),
    name,
    buildingType,
    created: expect.stringMatching(ISO),
    createdBy: expect.any(String),
    updated: expect.stringMatching(ISO),
    updatedBy: expect.any(String),
    events: expect.any(Array),
  });
}

describe('Concepts over REST', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Concepts');
  });
  afterAll(() => server.close());

  it('POST /concepts creates with 201, Location, audit fields and a CREATE event; a body tenantId is ignored', async () => {
    const res = await a.client.post('/concepts', {
      name: 'Row house',
      buildingType: 'ROW',
      tenantId: '00000000-0000-0000-0000-000000000000',
      createdBy: 'mallory',
    });
    expect(res.status).toBe(201);
    expectConcept(res.body, 'Row house', 'ROW');
    expect(res.body.tenantId).toBe(a.tenantId);
    expect(res.body.createdBy).toBe(a.adminEmail);
    expect(res.headers.get('location')).toBe(`/api/v1/concepts/find/${res.body.id}`);
    expect(res.body.events).toEqual([
      {
        id: expect.stringMatching(UUID),
        type: 'CREATE',
        date: expect.stringMatching(ISO),
        authorId: a.adminId,
        description: expect.any(String),
      },
    ]);
    const again = await a.client.get(res.headers.get('location')!.replace('/api/v1', ''));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('POST /concepts validates: missing name, unknown enum, wrong type are 400 naming the field', async () => {
    for (const [body, field] of [
      [{ buildingType: 'ROW' }, 'name'],
      [{ name: 'x', buildingType: 'CASTLE' }, 'buildingType'],
      [{ name: 42 }, 'name'],
      [{ name: '' }, 'name'],
    ] as const) {
      const res = await a.client.post('/concepts', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('PATCH /concepts/{id} changes only the fields given and appends an UPDATE event', async () => {
    const created = (await a.client.post('/concepts', { name: 'Before', buildingType: 'ROW' })).body;
    const res = await a.client.patch(`/concepts/${created.id}`, { name: 'After' });
    expect(res.status).toBe(200);
    expectConcept(res.body, 'After', 'ROW');
    expect(res.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect(res.body.events[1].description).toContain('name');
    expect(new Date(res.body.updated).getTime()).toBeGreaterThanOrEqual(new Date(created.updated).getTime());
    expectErrorBody(
      await a.client.patch('/concepts/6a1e7d1c-3b0b-4a7e-9d6f-000000000000', { name: 'x' }),
      404,
    );
    expectErrorBody(await a.client.patch('/concepts/not-an-id', { name: 'x' }), 404);
  });

  it('GET /concepts/find?ids= returns the records found in the order asked, skipping unknown ids', async () => {
    const x = (await a.client.post('/concepts', { name: 'X' })).body;
    const y = (await a.client.post('/concepts', { name: 'Y' })).body;
    const unknown = '6a1e7d1c-3b0b-4a7e-9d6f-111111111111';
    const res = await a.client.get(`/concepts/find?ids=${y.id},${unknown}&ids=${x.id}&ids=garbage`);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.name)).toEqual(['Y', 'X']);
    expectErrorBody(await a.client.get('/concepts/find'), 400);
  });

  it('GET /concepts/find-all and /concepts/tenant/list return every concept of the tenant', async () => {
    const all = await a.client.get('/concepts/find-all');
    const list = await a.client.get('/concepts/tenant/list');
    expect(all.status).toBe(200);
    expect(list.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(0);
    expect(list.body).toEqual(all.body);
    for (const c of all.body) expect(c.tenantId).toBe(a.tenantId);
  });

  it('GET /concepts/find/{id} is 404 for unknown and malformed ids', async () => {
    expectErrorBody(await a.client.get('/concepts/find/6a1e7d1c-3b0b-4a7e-9d6f-222222222222'), 404);
    expectErrorBody(await a.client.get('/concepts/find/%27%3B%20drop%20table%20concept'), 404);
  });

  it('GET /concepts/page pages, sorts and searches with the documented envelope', async () => {
    const t = await server.tenant('Paging');
    for (const name of ['delta', 'alpha', 'charlie', 'bravo', 'echo'])
      await t.client.post('/concepts', { name });
    const res = await t.client.get('/concepts/page?pageNumber=1&pageSize=2&sortBy=name&direction=ASC');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      content: [expect.objectContaining({ name: 'charlie' }), expect.objectContaining({ name: 'delta' })],
      empty: false,
      first: false,
      last: false,
      number: 1,
      numberOfElements: 2,
      size: 2,
      totalElements: 5,
      totalPages: 3,
      sort: { empty: false, sorted: true, unsorted: false },
      pageable: {
        offset: 2,
        pageNumber: 1,
        pageSize: 2,
        paged: true,
        unpaged: false,
        sort: { empty: false, sorted: true, unsorted: false },
      },
    });
    const last = await t.client.get('/concepts/page?pageNumber=2&pageSize=2&sortBy=name&direction=DESC');
    expect(last.body.content.map((c: any) => c.name)).toEqual(['alpha']);
    expect(last.body.last).toBe(true);
    const beyond = await t.client.get('/concepts/page?pageNumber=9&pageSize=2');
    expect(beyond.body).toMatchObject({
      content: [],
      empty: true,
      numberOfElements: 0,
      totalElements: 5,
      sort: { sorted: false, unsorted: true, empty: true },
    });
    const search = await t.client.get('/concepts/page?search=HAR');
    expect(search.body.content.map((c: any) => c.name)).toEqual(['charlie']);
    const defaults = await t.client.get('/concepts/page');
    expect(defaults.body).toMatchObject({
      number: 0,
      size: 20,
      totalElements: 5,
      totalPages: 1,
      first: true,
      last: true,
    });
    expectErrorBody(await t.client.get('/concepts/page?pageSize=1001'), 400);
    expectErrorBody(await t.client.get('/concepts/page?pageSize=0'), 400);
    expectErrorBody(await t.client.get('/concepts/page?pageNumber=-1'), 400);
    expectErrorBody(await t.client.get('/concepts/page?pageNumber=abc'), 400);
    expectErrorBody(await t.client.get('/concepts/page?sortBy=nope'), 400);
    expectErrorBody(await t.client.get('/concepts/page?direction=SIDEWAYS'), 400);
  });

  it('DELETE /concepts/{id} is 204, then 404; the deletion is kept in the audit log', async () => {
    const c = (await a.client.post('/concepts', { name: 'Doomed' })).body;
    const res = await a.client.delete(`/concepts/${c.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await a.client.get(`/concepts/find/${c.id}`)).status).toBe(404);
    expectErrorBody(await a.client.delete(`/concepts/${c.id}`), 404);
    const rows = await server.orm.em
      .getConnection()
      .execute(`select action, entity, data from audit_log where tenant_id = ? and entity_id = ?`, [
        a.tenantId,
        c.id,
      ]);
    expect(rows).toEqual([expect.objectContaining({ action: 'DELETE', entity: 'Concept' })]);
    expect(rows[0].data.name).toBe('Doomed');
  });

  it('DELETE /concepts with an array body deletes those found and skips unknown ids', async () => {
    const x = (await a.client.post('/concepts', { name: 'Bulk X' })).body;
    const y = (await a.client.post('/concepts', { name: 'Bulk Y' })).body;
    const res = await a.client.delete('/concepts', [x.id, y.id, '6a1e7d1c-3b0b-4a7e-9d6f-333333333333']);
    expect(res.status).toBe(204);
    expect((await a.client.get(`/concepts/find?ids=${x.id},${y.id}`)).body).toEqual([]);
    expectErrorBody(await a.client.delete('/concepts', { ids: 'nope' }), 400);
  });
});
