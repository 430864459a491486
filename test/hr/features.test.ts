import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  createTask,
  eventTypes,
  expectKeys,
  FEATURE_KEYS,
  gql,
  ISO,
  postAll,
  UNKNOWN_ID,
  UUID,
} from './helpers';

describe('HR features over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let epic: any;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Features');
    epic = (await a.client.post('/hr/epics', { name: 'Checkout', color: '#336699', status: 'IN_PROGRESS' }))
      .body;
  });
  afterAll(() => server.close());

  it('POST /hr/features with the documented body: 201, Location, every field, epic, counts and a CREATE event', async () => {
    const res = await a.client.post('/hr/features', {
      epicId: epic.id,
      name: 'Pay by card',
      priority: 'LOW',
      status: 'READY',
      tags: ['payments', 'web'],
    });
    expect(res.status).toBe(201);
    expectKeys(res.body, FEATURE_KEYS);
    expect(res.headers.get('location')).toBe(`/api/v1/hr/features/find/${res.body.id}`);
    expect(res.body).toMatchObject({
      tenantId: a.tenantId,
      createdBy: a.adminEmail,
      updatedBy: a.adminEmail,
      name: 'Pay by card',
      description: null,
      epicId: epic.id,
      epic: { id: epic.id, name: 'Checkout', color: '#336699' },
      priority: 'LOW',
      status: 'READY',
      tags: ['payments', 'web'],
      estimatedPoints: null,
      taskCount: 0,
      completedTaskCount: 0,
      progress: 0,
    });
    expect(res.body.events).toEqual([
      {
        id: expect.stringMatching(UUID),
        type: 'CREATE',
        date: expect.stringMatching(ISO),
        authorId: a.adminId,
        description: expect.any(String),
      },
    ]);
    const again = await a.client.get(`/hr/features/find/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('accepts the other documented fields, ignores foreign ones, and defaults status, tags, epic', async () => {
    const full = await a.client.post('/hr/features', {
      name: 'Refunds',
      description: 'Give money back',
      estimatedPoints: 8,
      priority: 'CRITICAL',
      tenantId: '00000000-0000-0000-0000-000000000000',
      createdBy: 'mallory',
      taskCount: 99,
      epic: { id: UNKNOWN_ID },
    });
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({
      tenantId: a.tenantId,
      createdBy: a.adminEmail,
      description: 'Give money back',
      estimatedPoints: 8,
      priority: 'CRITICAL',
      status: 'BACKLOG',
      tags: [],
      epicId: null,
      epic: null,
      taskCount: 0,
    });
    // Left out, a field takes its default; null where the record needs a value is a 400 naming it.
    const omitted = await a.client.post('/hr/features', { name: 'Omitted' });
    expect(omitted.status).toBe(201);
    expect(omitted.body).toMatchObject({ status: 'BACKLOG', tags: [] });
    const nulls = await a.client.post('/hr/features', { name: 'Nulls', status: null, tags: null });
    expect(nulls.status).toBe(400);
    expect(nulls.body.errors).toEqual([
      { field: 'status', reason: 'must not be null' },
      { field: 'tags', reason: 'must not be null' },
    ]);
  });

  it('POST /hr/features: bad input is a 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ status: 'READY' }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'x', priority: 'URGENT' }, 'priority'],
      [{ name: 'x', status: 'FINISHED' }, 'status'],
      [{ name: 'x', tags: [1, 2] }, 'tags'],
      [{ name: 'x', tags: { a: 1 } }, 'tags'],
      [{ name: 'x', estimatedPoints: 1.5 }, 'estimatedPoints'],
      [{ name: 'x', estimatedPoints: -1 }, 'estimatedPoints'],
      [{ name: 'x', epicId: 'not-an-id' }, 'epicId'],
      [{ name: 'x', epicId: UNKNOWN_ID }, 'epicId'],
    ];
    for (const [body, field] of cases) {
      const res = await a.client.post('/hr/features', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    expectErrorBody(
      await a.client.request('POST', '/hr/features', '{"name":', { 'content-type': 'application/json' }),
      400,
    );
  });

  it('progress is computed from the tasks of the feature, on every read', async () => {
    const f = (await a.client.post('/hr/features', { name: 'Progressing', epicId: epic.id })).body;
    for (const status of ['DONE', 'TODO', 'IN_PROGRESS'])
      await createTask(a.client, { title: status, featureId: f.id, status });
    const read = (await a.client.get(`/hr/features/find/${f.id}`)).body;
    expect(read).toMatchObject({ taskCount: 3, completedTaskCount: 1, progress: 33.33 });
    const listed = (await a.client.get(`/hr/features/by-epic/${epic.id}`)).body.find(
      (x: any) => x.id === f.id,
    );
    expect(listed).toMatchObject({ taskCount: 3, completedTaskCount: 1, progress: 33.33 });
  });

  it('a GraphQL update changes only the fields given; a status change appends STATUS_CHANGE', async () => {
    const f = (await a.client.post('/hr/features', { name: 'Moving', status: 'BACKLOG', tags: ['t'] })).body;
    const data = await gql(
      a.client,
      `mutation($id: ID!, $i: UpdateFeatureInput!) { updateFeature(id: $id, input: $i) { name status tags estimatedPoints events { type description authorId } } }`,
      { id: f.id, i: { status: 'IN_PROGRESS', estimatedPoints: 5 } },
    );
    expect(data.updateFeature).toMatchObject({
      name: 'Moving',
      status: 'IN_PROGRESS',
      tags: ['t'],
      estimatedPoints: 5,
    });
    expect(data.updateFeature.events).toEqual([
      expect.objectContaining({ type: 'CREATE' }),
      { type: 'STATUS_CHANGE', description: 'BACKLOG -> IN_PROGRESS', authorId: a.adminId },
      expect.objectContaining({ type: 'UPDATE', description: expect.stringContaining('estimatedPoints') }),
    ]);
    const rest = (await a.client.get(`/hr/features/find/${f.id}`)).body;
    expect(eventTypes(rest)).toEqual(['CREATE', 'STATUS_CHANGE', 'UPDATE']);
    for (const input of [{ name: null }, { status: null }, { epicId: UNKNOWN_ID }]) {
      const res = await a.client.graphql(
        `mutation($id: ID!, $i: UpdateFeatureInput!) { updateFeature(id: $id, input: $i) { id } }`,
        { id: f.id, i: input },
      );
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
    }
  });

  it('S1 find?ids and S4 find-list return the records asked, in order; S1 needs ids', async () => {
    const [x, y] = await postAll(a.client, '/hr/features', [{ name: 'S1 x' }, { name: 'S1 y' }]);
    const res = await a.client.get(`/hr/features/find?ids=${y.id},${UNKNOWN_ID}&ids=${x.id}&ids=junk`);
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => f.name)).toEqual(['S1 y', 'S1 x']);
    expectKeys(res.body[0], FEATURE_KEYS);
    expectErrorBody(await a.client.get('/hr/features/find'), 400);
    const list = await a.client.get(`/hr/features/find-list?ids=${x.id}`);
    expect(list.body.map((f: any) => f.id)).toEqual([x.id]);
    expect((await a.client.get('/hr/features/find-list')).body).toEqual([]);
  });

  it('S2 find-all, S3 find/{id} (404 unknown and malformed)', async () => {
    const all = await a.client.get('/hr/features/find-all');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(2);
    for (const f of all.body) expectKeys(f, FEATURE_KEYS);
    expectErrorBody(await a.client.get(`/hr/features/find/${UNKNOWN_ID}`), 404);
    expectErrorBody(await a.client.get('/hr/features/find/nope'), 404);
  });

  it('S5 page, S6/S7 dynamic search and S8 CSV select, sort and page', async () => {
    const t = await server.tenant('Feature search');
    const e = (await t.client.post('/hr/epics', { name: 'E' })).body;
    await postAll(t.client, '/hr/features', [
      { name: 'alpha', estimatedPoints: 1, status: 'READY', tags: ['ui'], epicId: e.id },
      { name: 'bravo', estimatedPoints: 3, status: 'DONE', tags: ['api'] },
      { name: 'charlie', estimatedPoints: 5, status: 'READY', tags: ['ui', 'api'], epicId: e.id },
    ]);
    const page = await t.client.get(
      '/hr/features/page?pageNumber=0&pageSize=2&sortBy=estimatedPoints&direction=DESC',
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2, number: 0 });
    expect(page.body.content.map((f: any) => f.name)).toEqual(['charlie', 'bravo']);
    expectKeys(page.body.content[0], FEATURE_KEYS);
    expect((await t.client.get('/hr/features/page?search=RAV')).body.content.map((f: any) => f.name)).toEqual(
      ['bravo'],
    );

    const s6 = await t.client.get(
      '/hr/features/dynamic-search?filters=status:eq:READY&filters=tags:contains:api&sort=name,desc',
    );
    expect(s6.status).toBe(200);
    expect(s6.body.content.map((f: any) => f.name)).toEqual(['charlie']);
    expect(s6.body.content[0].epic).toEqual({ id: e.id, name: 'E', color: null });
    const s6b = await t.client.get(
      `/hr/features/dynamic-search?filters=epicId:eq:${e.id}&sort=name,asc&size=1&page=1`,
    );
    expect(s6b.body).toMatchObject({ totalElements: 2, number: 1, numberOfElements: 1 });
    expect(s6b.body.content[0].name).toBe('charlie');

    const s7 = await t.client.post('/hr/features/dynamic-search', {
      filters: { estimatedPoints: { gte: 3 }, status: ['READY', 'DONE'] },
      sort: [{ field: 'name', ascending: true }],
      search: ['a'],
      page: 0,
      size: 10,
    });
    expect(s7.status).toBe(200);
    expect(s7.body.content.map((f: any) => f.name)).toEqual(['bravo', 'charlie']);

    const csv = await t.client.get('/hr/features/csv-export?sort=name,asc');
    expect(csv.status).toBe(200);
    expect(typeof csv.body).toBe('string');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['id', 'name', 'epicId', 'priority', 'status', 'tags', 'estimatedPoints']),
    );
    // Derived fields are exported too, computed with the page.
    expect(lines[0].split(',').slice(-3)).toEqual(['taskCount', 'completedTaskCount', 'progress']);
    for (const line of lines.slice(1)) expect(line).toMatch(/,\d+,\d+,\d+(\.\d+)?$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('alpha');

    for (const bad of [
      '/hr/features/dynamic-search?filters=colour:eq:red',
      '/hr/features/dynamic-search?filters=status:eq:LATER',
      '/hr/features/dynamic-search?filters=estimatedPoints:gt:many',
      '/hr/features/dynamic-search?sort=epic,asc',
      '/hr/features/csv-export?filters=nope:eq:1',
      '/hr/features/page?sortBy=nope',
    ]) {
      const res = await t.client.get(bad);
      expectErrorBody(res, 400);
    }
    const unknownField = await t.client.post('/hr/features/dynamic-search', { filters: { colour: 'red' } });
    expectErrorBody(unknownField, 400);
    expect(unknownField.body.detail).toContain('colour');
  });

  it('GET /hr/features/by-epic/{epicId} lists the epic’s features; unknown or malformed ids give []', async () => {
    const e = (await a.client.post('/hr/epics', { name: 'By epic' })).body;
    const [f1, f2] = await postAll(a.client, '/hr/features', [
      { name: 'first', epicId: e.id },
      { name: 'second', epicId: e.id },
      { name: 'elsewhere', epicId: epic.id },
    ]);
    const res = await a.client.get(`/hr/features/by-epic/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => f.id)).toEqual([f1.id, f2.id]);
    expectKeys(res.body[0], FEATURE_KEYS);
    expect((await a.client.get(`/hr/features/by-epic/${UNKNOWN_ID}`)).body).toEqual([]);
    const malformed = await a.client.get('/hr/features/by-epic/garbage');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toEqual([]);
  });

  it('GET /hr/features/by-status/{status} lists that status only; unknown statuses are 400', async () => {
    const t = await server.tenant('Feature status');
    await postAll(t.client, '/hr/features', [
      { name: 'one', status: 'DONE' },
      { name: 'two', status: 'READY' },
      { name: 'three', status: 'DONE' },
    ]);
    const res = await t.client.get('/hr/features/by-status/DONE');
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => f.name)).toEqual(['one', 'three']);
    expectKeys(res.body[0], FEATURE_KEYS);
    expect((await t.client.get('/hr/features/by-status/IN_PROGRESS')).body).toEqual([]);
    const bad = await t.client.get('/hr/features/by-status/done-ish');
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('status');
  });

  it('S9 delete-list deletes those found (204), skips unknown ids, keeps an audit log; ids are required', async () => {
    const [x, y] = await postAll(a.client, '/hr/features', [{ name: 'doomed x' }, { name: 'doomed y' }]);
    const res = await a.client.delete(`/hr/features/delete-list?ids=${x.id},${UNKNOWN_ID}&ids=${y.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await a.client.get(`/hr/features/find?ids=${x.id},${y.id}`)).body).toEqual([]);
    const rows = await server.orm.em
      .getConnection()
      .execute(`select action from audit_log where tenant_id = ? and entity = 'Feature' and entity_id = ?`, [
        a.tenantId,
        x.id,
      ]);
    expect(rows).toEqual([{ action: 'DELETE' }]);
    expectErrorBody(await a.client.delete('/hr/features/delete-list'), 400);
  });

  it('403 without the permission; READ_FEATURES reads but cannot create or delete', async () => {
    const f = (await a.client.post('/hr/features', { name: 'guarded' })).body;
    const none = await a.userWith(['READ_EPICS']);
    for (const path of [
      '/hr/features/find-all',
      `/hr/features/find?ids=${f.id}`,
      `/hr/features/find/${f.id}`,
      '/hr/features/find-list',
      '/hr/features/page',
      '/hr/features/dynamic-search',
      '/hr/features/csv-export',
      `/hr/features/by-epic/${epic.id}`,
      '/hr/features/by-status/READY',
    ])
      expectErrorBody(await none.client.get(path), 403);
    expectErrorBody(await none.client.post('/hr/features/dynamic-search', {}), 403);
    const reader = await a.userWith(['READ_FEATURES']);
    expect((await reader.client.get(`/hr/features/find/${f.id}`)).status).toBe(200);
    expectErrorBody(await reader.client.post('/hr/features', { name: 'nope' }), 403);
    expectErrorBody(await reader.client.delete(`/hr/features/delete-list?ids=${f.id}`), 403);
    expect((await a.client.get(`/hr/features/find/${f.id}`)).status).toBe(200);
    expectErrorBody(await a.client.withToken(undefined).get('/hr/features/find-all'), 401);
  });

  it('another tenant can neither read, list, search, export, use nor delete these features', async () => {
    const f = (
      await a.client.post('/hr/features', { name: 'secret feature', epicId: epic.id, status: 'DONE' })
    ).body;
    const b = await server.tenant('Other');
    expectErrorBody(await b.client.get(`/hr/features/find/${f.id}`), 404);
    expect((await b.client.get(`/hr/features/find?ids=${f.id}`)).body).toEqual([]);
    expect((await b.client.get(`/hr/features/find-list?ids=${f.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/features/find-all')).body).toEqual([]);
    expect((await b.client.get('/hr/features/page')).body.totalElements).toBe(0);
    expect((await b.client.get('/hr/features/dynamic-search?search=secret')).body.totalElements).toBe(0);
    expect((await b.client.post('/hr/features/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/hr/features/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
    expect((await b.client.get(`/hr/features/by-epic/${epic.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/features/by-status/DONE')).body).toEqual([]);
    expectErrorBody(await b.client.post('/hr/features', { name: 'steal', epicId: epic.id }), 400);
    expect((await b.client.delete(`/hr/features/delete-list?ids=${f.id}`)).status).toBe(204);
    expect((await a.client.get(`/hr/features/find/${f.id}`)).status).toBe(200);
  });
});
