import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { createEmployee, eventTypes, expectKeys, gql, postAll, TEAM_KEYS, UNKNOWN_ID } from './helpers';

describe('HR teams over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Teams');
    ada = await createEmployee(a.client, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      jobTitle: 'Engineer',
      department: 'R&D',
    });
    bob = await createEmployee(a.client, { firstName: 'Bob', email: 'bob@example.test' });
  });
  afterAll(() => server.close());

  it('POST /hr/teams with the documented body: 201, Location, every field, members from the employees', async () => {
    const res = await a.client.post('/hr/teams', {
      dailyCapacity: 16,
      memberIds: [bob, ada, bob],
      name: 'Platform',
      status: 'ACTIVE',
    });
    expect(res.status).toBe(201);
    expectKeys(res.body, TEAM_KEYS);
    expect(res.headers.get('location')).toBe(`/api/v1/hr/teams/find/${res.body.id}`);
    expect(res.body).toMatchObject({
      tenantId: a.tenantId,
      name: 'Platform',
      description: null,
      color: null,
      dailyCapacity: 16,
      memberIds: [bob, ada],
      status: 'ACTIVE',
    });
    expect(res.body.members).toEqual([
      { id: bob, email: 'bob@example.test', firstName: 'Bob', lastName: null, jobTitle: null },
      { id: ada, email: 'ada@example.test', firstName: 'Ada', lastName: 'Lovelace', jobTitle: 'Engineer' },
    ]);
    expect(eventTypes(res.body)).toEqual(['CREATE']);
    const found = await a.client.get(`/hr/teams/find/${res.body.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(res.body);
    // An id that names no employee of the tenant is refused, naming it.
    const unknown = await a.client.post('/hr/teams', { name: 'Ghosts', memberIds: [bob, UNKNOWN_ID] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { field: 'memberIds[1]', reason: expect.stringContaining(UNKNOWN_ID) },
    ]);
  });

  it('defaults status to ACTIVE and memberIds to []; accepts description and colour', async () => {
    const res = await a.client.post('/hr/teams', { name: 'Solo', description: 'One', color: '#fff' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'ACTIVE',
      memberIds: [],
      members: [],
      dailyCapacity: null,
      color: '#fff',
    });
  });

  it('POST /hr/teams: bad input is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ memberIds: [] }, 'name'],
      [{ name: 'x', dailyCapacity: 'lots' }, 'dailyCapacity'],
      [{ name: 'x', dailyCapacity: 2.5 }, 'dailyCapacity'],
      [{ name: 'x', dailyCapacity: -1 }, 'dailyCapacity'],
      [{ name: 'x', memberIds: ['not-an-id'] }, 'memberIds'],
      [{ name: 'x', status: 'DISBANDED' }, 'status'],
    ] as [object, string][]) {
      const res = await a.client.post('/hr/teams', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('a GraphQL update of the status appends STATUS_CHANGE; members follow memberIds', async () => {
    const t = (await a.client.post('/hr/teams', { name: 'Changing', memberIds: [ada] })).body;
    const data = await gql(
      a.client,
      `mutation($id: ID!, $i: UpdateTeamInput!) { updateTeam(id: $id, input: $i) { status memberIds members { id } events { type description } } }`,
      { id: t.id, i: { status: 'ARCHIVED', memberIds: [bob] } },
    );
    expect(data.updateTeam).toMatchObject({ status: 'ARCHIVED', memberIds: [bob], members: [{ id: bob }] });
    expect(data.updateTeam.events.map((e: any) => [e.type, e.description])).toEqual([
      ['CREATE', expect.any(String)],
      ['STATUS_CHANGE', 'ACTIVE -> ARCHIVED'],
      ['UPDATE', expect.stringContaining('memberIds')],
    ]);
  });

  it('S1 find, S2 find-all, S4 find-list', async () => {
    const [x, y] = await postAll(a.client, '/hr/teams', [{ name: 'S1 x' }, { name: 'S1 y' }]);
    const res = await a.client.get(`/hr/teams/find?ids=${y.id}&ids=${x.id},${UNKNOWN_ID}`);
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.id)).toEqual([y.id, x.id]);
    expectKeys(res.body[0], TEAM_KEYS);
    expectErrorBody(await a.client.get('/hr/teams/find'), 400);
    expect((await a.client.get(`/hr/teams/find-list?ids=${x.id}`)).body.map((t: any) => t.id)).toEqual([
      x.id,
    ]);
    expect((await a.client.get('/hr/teams/find-list')).body).toEqual([]);
    const all = await a.client.get('/hr/teams/find-all');
    expect(all.status).toBe(200);
    expect(all.body.map((t: any) => t.id)).toEqual(expect.arrayContaining([x.id, y.id]));
    for (const t of all.body) expectKeys(t, TEAM_KEYS);
  });

  it('GET /hr/teams/active, by-status and by-member', async () => {
    const t = await server.tenant('Team lists');
    const m = await createEmployee(t.client, { firstName: 'Mia' });
    const [one, , three] = await postAll(t.client, '/hr/teams', [
      { name: 'one', status: 'ACTIVE', memberIds: [m] },
      { name: 'two', status: 'ARCHIVED', memberIds: [m] },
      { name: 'three', status: 'ACTIVE' },
    ]);
    const active = await t.client.get('/hr/teams/active');
    expect(active.status).toBe(200);
    expect(active.body.map((x: any) => x.name)).toEqual(['one', 'three']);
    expectKeys(active.body[0], TEAM_KEYS);
    expect((await t.client.get('/hr/teams/by-status/ARCHIVED')).body.map((x: any) => x.name)).toEqual([
      'two',
    ]);
    expect((await t.client.get('/hr/teams/by-status/ACTIVE')).body.map((x: any) => x.id)).toEqual([
      one.id,
      three.id,
    ]);
    expectErrorBody(await t.client.get('/hr/teams/by-status/active'), 400);
    const byMember = await t.client.get(`/hr/teams/by-member/${m}`);
    expect(byMember.status).toBe(200);
    expect(byMember.body.map((x: any) => x.name)).toEqual(['one', 'two']);
    expect(byMember.body[0].members).toEqual([
      { id: m, firstName: 'Mia', lastName: null, email: null, jobTitle: null },
    ]);
    expect((await t.client.get(`/hr/teams/by-member/${UNKNOWN_ID}`)).body).toEqual([]);
    expect((await t.client.get('/hr/teams/by-member/junk')).body).toEqual([]);
  });

  it('S6, S7, S8 and the enriched search: filters, members and the page envelope', async () => {
    const t = await server.tenant('Team search');
    const m = await createEmployee(t.client, {
      firstName: 'Zoe',
      lastName: 'Z',
      email: 'z@example.test',
      jobTitle: 'QA',
    });
    await postAll(t.client, '/hr/teams', [
      { name: 'Alpha squad', dailyCapacity: 8, memberIds: [m] },
      { name: 'Beta squad', dailyCapacity: 24, status: 'ARCHIVED' },
      { name: 'Gamma', dailyCapacity: 16, memberIds: [m] },
    ]);
    const enriched = await t.client.get(
      `/hr/teams/dynamic-search-enriched?filters=memberIds:eq:${m}&sort=name,desc`,
    );
    expect(enriched.status).toBe(200);
    expect(enriched.body).toMatchObject({
      totalElements: 2,
      numberOfElements: 2,
      number: 0,
      size: 20,
      first: true,
      last: true,
      empty: false,
      sort: { sorted: true, unsorted: false, empty: false },
      pageable: { offset: 0, pageNumber: 0, pageSize: 20, paged: true, unpaged: false },
    });
    expect(enriched.body.content.map((x: any) => x.name)).toEqual(['Gamma', 'Alpha squad']);
    expect(enriched.body.content[0].members).toEqual([
      { id: m, firstName: 'Zoe', lastName: 'Z', email: 'z@example.test', jobTitle: 'QA' },
    ]);
    expectKeys(enriched.body.content[0], TEAM_KEYS);
    expectErrorBody(await t.client.get('/hr/teams/dynamic-search-enriched?filters=size:eq:1'), 400);
    expectErrorBody(await t.client.get('/hr/teams/dynamic-search-enriched?size=5000'), 400);

    const s6 = await t.client.get('/hr/teams/dynamic-search?search=squad&filters=dailyCapacity:gte:10');
    expect(s6.body.content.map((x: any) => x.name)).toEqual(['Beta squad']);
    const s7 = await t.client.post('/hr/teams/dynamic-search', {
      filters: { status: 'ACTIVE' },
      sort: [{ field: 'dailyCapacity', ascending: false }],
    });
    expect(s7.status).toBe(200);
    expect(s7.body.content.map((x: any) => x.name)).toEqual(['Gamma', 'Alpha squad']);
    expectErrorBody(await t.client.post('/hr/teams/dynamic-search', { filters: { status: 'GONE' } }), 400);
    const csv = await t.client.get('/hr/teams/csv-export?sort=name,asc');
    expect(csv.status).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['id', 'name', 'dailyCapacity', 'memberIds', 'status']),
    );
    expect(lines[0]).not.toContain('members,');
    expect(lines).toHaveLength(4);
  });

  it('S9 delete-list deletes (204) and skips unknown ids', async () => {
    const [x] = await postAll(a.client, '/hr/teams', [{ name: 'doomed' }]);
    expect((await a.client.delete(`/hr/teams/delete-list?ids=${x.id},${UNKNOWN_ID}`)).status).toBe(204);
    expectErrorBody(await a.client.get(`/hr/teams/find/${x.id}`), 404);
    expectErrorBody(await a.client.delete('/hr/teams/delete-list'), 400);
  });

  it('403 without TEAMS permissions', async () => {
    const t = (await a.client.post('/hr/teams', { name: 'guarded' })).body;
    const user = await a.userWith(['READ_FEATURES', 'CREATE_FEATURES']);
    for (const path of [
      '/hr/teams/find-all',
      `/hr/teams/find?ids=${t.id}`,
      '/hr/teams/find-list',
      '/hr/teams/active',
      `/hr/teams/by-member/${ada}`,
      '/hr/teams/by-status/ACTIVE',
      '/hr/teams/dynamic-search',
      '/hr/teams/dynamic-search-enriched',
      '/hr/teams/csv-export',
    ])
      expectErrorBody(await user.client.get(path), 403);
    expectErrorBody(await user.client.post('/hr/teams', { name: 'x' }), 403);
    expectErrorBody(await user.client.delete(`/hr/teams/delete-list?ids=${t.id}`), 403);
    const reader = await a.userWith(['READ_TEAMS']);
    expect((await reader.client.get('/hr/teams/active')).status).toBe(200);
    expectErrorBody(await reader.client.post('/hr/teams', { name: 'x' }), 403);
  });

  it('another tenant can neither read, list, search, export nor delete these teams', async () => {
    const t = (await a.client.post('/hr/teams', { name: 'secret team', memberIds: [ada] })).body;
    const b = await server.tenant('Other');
    expectErrorBody(await b.client.get(`/hr/teams/find/${t.id}`), 404);
    expect((await b.client.get(`/hr/teams/find?ids=${t.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/teams/find-all')).body).toEqual([]);
    expect((await b.client.get('/hr/teams/active')).body).toEqual([]);
    expect((await b.client.get(`/hr/teams/by-member/${ada}`)).body).toEqual([]);
    expect((await b.client.get('/hr/teams/by-status/ACTIVE')).body).toEqual([]);
    expect((await b.client.get('/hr/teams/dynamic-search-enriched?search=secret')).body.totalElements).toBe(
      0,
    );
    expect((await b.client.post('/hr/teams/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/hr/teams/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
    // A's employee is unknown in B: employees are per tenant too.
    const own = await b.client.post('/hr/teams', { name: 'mine', memberIds: [ada] });
    expectErrorBody(own, 400);
    expect(own.body.detail).toContain(ada);
    expect((await b.client.delete(`/hr/teams/delete-list?ids=${t.id}`)).status).toBe(204);
    expect((await a.client.get(`/hr/teams/find/${t.id}`)).status).toBe(200);
  });
});
