import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { expectErrorBody } from '../support/http';
import {
  createEmployee,
  createTask,
  eventTypes,
  expectKeys,
  gql,
  postAll,
  PROJECT_KEYS,
  UNKNOWN_ID,
} from './helpers';

describe('HR projects over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let lead: string;
  let member: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Projects');
    lead = await createEmployee(a.client, {
      firstName: 'Linus',
      lastName: 'T',
      email: 'linus@example.test',
      jobTitle: 'Lead',
    });
    member = await createEmployee(a.client, { firstName: 'Margaret', lastName: 'H', department: 'Apollo' });
  });
  afterAll(() => server.close());

  it('POST /hr/projects with the documented body: 201, Location, every field, team members', async () => {
    const res = await a.client.post('/hr/projects', {
      code: 'APL',
      defaultSprintDurationDays: 14,
      name: 'Apollo',
      status: 'ACTIVE',
      tags: ['space'],
      teamMemberIds: [member, lead],
    });
    expect(res.status).toBe(201);
    expectKeys(res.body, PROJECT_KEYS);
    expect(res.headers.get('location')).toBe(`/api/v1/hr/projects/find/${res.body.id}`);
    expect(res.body).toMatchObject({
      tenantId: a.tenantId,
      name: 'Apollo',
      code: 'APL',
      description: null,
      color: null,
      clientId: null,
      leadId: null,
      lead: null,
      status: 'ACTIVE',
      tags: ['space'],
      teamMemberIds: [member, lead],
      startDate: null,
      endDate: null,
      defaultSprintDurationDays: 14,
      hourlyRate: null,
      picture: null,
      epicCount: 0,
      taskCount: 0,
      completedTaskCount: 0,
      progress: 0,
    });
    expect(res.body.teamMembers).toEqual([
      { id: member, fullName: 'Margaret H', email: null, jobTitle: null, department: 'Apollo', avatar: null },
      {
        id: lead,
        fullName: 'Linus T',
        email: 'linus@example.test',
        jobTitle: 'Lead',
        department: null,
        avatar: null,
      },
    ]);
    expect(eventTypes(res.body)).toEqual(['CREATE']);
    const found = await a.client.get(res.headers.get('location')!.replace('/api/v1', ''));
    expect(found.status).toBe(200);
    expect(found.body).toEqual(res.body);
  });

  it('keeps lead, client, dates, rate and picture; defaults status PLANNING and lists []', async () => {
    const client = (
      await gql(a.client, 'mutation($i: CustomerInput!) { createCustomer(input: $i) { id } }', {
        i: { name: 'NASA' },
      })
    ).createCustomer.id;
    const { file: picture } = await storedFile(server.baseUrl, a, { name: 'logo.png' });
    const res = await a.client.post('/hr/projects', {
      name: 'Gemini',
      leadId: lead,
      clientId: client,
      color: 'navy',
      description: 'Two seats',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      hourlyRate: 95.5,
      // What a client claims of the file is replaced by what is stored.
      picture: {
        blobId: picture.blobId,
        name: 'logo.png',
        extension: 'png',
        fileSize: 1,
        type: 'VIDEO',
        created: '2026-01-01T10:00:00.000Z',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'PLANNING',
      tags: [],
      teamMemberIds: [],
      teamMembers: [],
      leadId: lead,
      clientId: client,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      hourlyRate: 95.5,
      picture: {
        blobId: picture.blobId,
        name: 'logo.png',
        extension: 'png',
        fileSize: picture.fileSize,
        type: 'IMAGE',
        created: picture.created,
      },
      lead: {
        id: lead,
        fullName: 'Linus T',
        email: 'linus@example.test',
        jobTitle: 'Lead',
        department: null,
        avatar: null,
      },
    });
  });

  it('POST /hr/projects: bad input is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ code: 'X' }, 'name'],
      [{ name: 'x', defaultSprintDurationDays: 'two weeks' }, 'defaultSprintDurationDays'],
      [{ name: 'x', defaultSprintDurationDays: 0 }, 'defaultSprintDurationDays'],
      [{ name: 'x', hourlyRate: 'cheap' }, 'hourlyRate'],
      [{ name: 'x', hourlyRate: -5 }, 'hourlyRate'],
      [{ name: 'x', status: 'RUNNING' }, 'status'],
      [{ name: 'x', teamMemberIds: ['me'] }, 'teamMemberIds'],
      [{ name: 'x', leadId: 'boss' }, 'leadId'],
      [{ name: 'x', startDate: '01/02/2026' }, 'startDate'],
      [{ name: 'x', startDate: '2026-02-01', endDate: '2026-01-01' }, 'endDate'],
      [{ name: 'x', picture: { type: 'HOLOGRAM' } }, 'picture'],
    ] as [object, string][]) {
      const res = await a.client.post('/hr/projects', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('epicCount, taskCount and progress come from the project’s epics and tasks', async () => {
    const p = (await a.client.post('/hr/projects', { name: 'Counted' })).body;
    const [e1, e2] = await postAll(a.client, '/hr/epics', [
      { name: 'e1', projectId: p.id },
      { name: 'e2', projectId: p.id },
    ]);
    const f = (await a.client.post('/hr/features', { name: 'f', epicId: e1.id })).body;
    await createTask(a.client, { title: 'a', featureId: f.id, status: 'DONE' });
    await createTask(a.client, { title: 'b', epicId: e2.id });
    await createTask(a.client, { title: 'c', projectId: p.id });
    const read = (await a.client.get(`/hr/projects/find/${p.id}`)).body;
    expect(read).toMatchObject({ epicCount: 2, taskCount: 3, completedTaskCount: 1, progress: 33.33 });
  });

  it('a GraphQL status change appends STATUS_CHANGE', async () => {
    const p = (await a.client.post('/hr/projects', { name: 'Status' })).body;
    const data = await gql(
      a.client,
      `mutation($id: ID!, $i: UpdateHrProjectInput!) { updateHrProject(id: $id, input: $i) { status events { type description } } }`,
      { id: p.id, i: { status: 'ON_HOLD' } },
    );
    expect(data.updateHrProject.status).toBe('ON_HOLD');
    expect(data.updateHrProject.events.map((e: any) => [e.type, e.description])).toEqual([
      ['CREATE', expect.any(String)],
      ['STATUS_CHANGE', 'PLANNING -> ON_HOLD'],
    ]);
    const bad = await a.client.graphql(
      `mutation($id: ID!, $i: UpdateHrProjectInput!) { updateHrProject(id: $id, input: $i) { id } }`,
      { id: p.id, i: { endDate: '2020-01-01', startDate: '2021-01-01' } },
    );
    expect(bad.body.errors?.[0].extensions?.status).toBe(400);
  });

  it('GET /hr/projects/active, by-status and by-lead', async () => {
    const t = await server.tenant('Project lists');
    const l = await createEmployee(t.client, { firstName: 'Lea' });
    await postAll(t.client, '/hr/projects', [
      { name: 'running', status: 'ACTIVE', leadId: l },
      { name: 'idea', status: 'PLANNING' },
      { name: 'also running', status: 'ACTIVE' },
      { name: 'old', status: 'ARCHIVED', leadId: l },
    ]);
    const names = async (path: string) => {
      const res = await t.client.get(path);
      expect(res.status).toBe(200);
      for (const p of res.body) expectKeys(p, PROJECT_KEYS);
      return res.body.map((p: any) => p.name);
    };
    expect(await names('/hr/projects/active')).toEqual(['running', 'also running']);
    expect(await names('/hr/projects/by-status/ARCHIVED')).toEqual(['old']);
    expect(await names('/hr/projects/by-status/COMPLETED')).toEqual([]);
    expect(await names(`/hr/projects/by-lead/${l}`)).toEqual(['running', 'old']);
    expect(await names(`/hr/projects/by-lead/${UNKNOWN_ID}`)).toEqual([]);
    expect(await names('/hr/projects/by-lead/nobody')).toEqual([]);
    expectErrorBody(await t.client.get('/hr/projects/by-status/Active'), 400);
  });

  it('S1, S2, S6, S7, S8 and S9', async () => {
    const t = await server.tenant('Project family');
    const [x, y] = await postAll(t.client, '/hr/projects', [
      { name: 'Mercury', code: 'MER', hourlyRate: 50, tags: ['nasa'] },
      { name: 'Vostok', code: 'VOS', hourlyRate: 70, startDate: '2026-04-12' },
    ]);
    expect(
      (await t.client.get(`/hr/projects/find?ids=${y.id},${x.id}`)).body.map((p: any) => p.code),
    ).toEqual(['VOS', 'MER']);
    expectErrorBody(await t.client.get('/hr/projects/find'), 400);
    expect((await t.client.get('/hr/projects/find-all')).body).toHaveLength(2);
    const s6 = await t.client.get('/hr/projects/dynamic-search?filters=hourlyRate:gt:60');
    expect(s6.body.content.map((p: any) => p.name)).toEqual(['Vostok']);
    expectKeys(s6.body.content[0], PROJECT_KEYS);
    const s7 = await t.client.post('/hr/projects/dynamic-search', {
      search: ['mer'],
      filters: { tags: ['nasa'] },
    });
    expect(s7.body.content.map((p: any) => p.name)).toEqual(['Mercury']);
    expectErrorBody(await t.client.post('/hr/projects/dynamic-search', { filters: { lead: 'x' } }), 400);
    expectErrorBody(await t.client.get('/hr/projects/dynamic-search?filters=startDate:gt:April'), 400);
    const csv = await t.client.get('/hr/projects/csv-export?sort=name,asc');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['code', 'hourlyRate', 'picture.blobId', 'teamMemberIds']),
    );
    expect(lines[1]).toContain('Mercury');
    expect((await t.client.delete(`/hr/projects/delete-list?ids=${x.id}`)).status).toBe(204);
    expect((await t.client.get('/hr/projects/find-all')).body.map((p: any) => p.id)).toEqual([y.id]);
    expectErrorBody(await t.client.delete('/hr/projects/delete-list'), 400);
  });

  it('403 without PROJECTS permissions', async () => {
    const p = (await a.client.post('/hr/projects', { name: 'guarded' })).body;
    const user = await a.userWith(['READ_EPICS', 'READ_TEAMS']);
    for (const path of [
      '/hr/projects/find-all',
      `/hr/projects/find?ids=${p.id}`,
      '/hr/projects/active',
      `/hr/projects/by-lead/${lead}`,
      '/hr/projects/by-status/ACTIVE',
      '/hr/projects/dynamic-search',
      '/hr/projects/csv-export',
    ])
      expectErrorBody(await user.client.get(path), 403);
    expectErrorBody(await user.client.post('/hr/projects', { name: 'x' }), 403);
    expectErrorBody(await user.client.delete(`/hr/projects/delete-list?ids=${p.id}`), 403);
    const creator = await a.userWith(['CREATE_PROJECTS']);
    expect((await creator.client.post('/hr/projects', { name: 'allowed' })).status).toBe(201);
    expectErrorBody(await creator.client.get('/hr/projects/find-all'), 403);
  });

  it('another tenant can neither read, list, search, export nor delete these projects', async () => {
    const p = (
      await a.client.post('/hr/projects', { name: 'secret project', leadId: lead, status: 'ACTIVE' })
    ).body;
    const b = await server.tenant('Other');
    expectErrorBody(await b.client.get(`/hr/projects/find/${p.id}`), 404);
    expect((await b.client.get(`/hr/projects/find?ids=${p.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/projects/find-all')).body).toEqual([]);
    expect((await b.client.get('/hr/projects/active')).body).toEqual([]);
    expect((await b.client.get(`/hr/projects/by-lead/${lead}`)).body).toEqual([]);
    expect((await b.client.get('/hr/projects/by-status/ACTIVE')).body).toEqual([]);
    expect((await b.client.get('/hr/projects/dynamic-search?search=secret')).body.totalElements).toBe(0);
    expect((await b.client.post('/hr/projects/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/hr/projects/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
    expect((await b.client.delete(`/hr/projects/delete-list?ids=${p.id}`)).status).toBe(204);
    expect((await a.client.get(`/hr/projects/find/${p.id}`)).status).toBe(200);
  });
});
