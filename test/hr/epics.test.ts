import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  createEmployee,
  createTask,
  EPIC_KEYS,
  eventTypes,
  expectKeys,
  gql,
  postAll,
  UNKNOWN_ID,
} from './helpers';

describe('HR epics over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let owner: string;
  let project: any;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Epics');
    owner = await createEmployee(a.client, {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.test',
      jobTitle: 'Admiral',
      department: 'Navy',
      avatar: 'blob-1',
    });
    project = (await a.client.post('/hr/projects', { name: 'Compiler', status: 'ACTIVE' })).body;
  });
  afterAll(() => server.close());

  it('POST /hr/epics with the documented body: 201, Location, every field, counts and a CREATE event', async () => {
    const res = await a.client.post('/hr/epics', {
      name: 'Parser',
      priority: 2,
      status: 'PLANNING',
      tags: ['core'],
    });
    expect(res.status).toBe(201);
    expectKeys(res.body, EPIC_KEYS);
    expect(res.headers.get('location')).toBe(`/api/v1/hr/epics/find/${res.body.id}`);
    expect(res.body).toMatchObject({
      tenantId: a.tenantId,
      name: 'Parser',
      description: null,
      color: null,
      ownerId: null,
      owner: null,
      projectId: null,
      priority: 2,
      status: 'PLANNING',
      tags: ['core'],
      targetStartDate: null,
      targetEndDate: null,
      featureCount: 0,
      taskCount: 0,
      completedTaskCount: 0,
      progress: 0,
    });
    expect(eventTypes(res.body)).toEqual(['CREATE']);
    const found = await a.client.get(`/hr/epics/find/${res.body.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(res.body);
  });

  it('owner is the PersonSummary of the employee; dates, project and colour are kept', async () => {
    const res = await a.client.post('/hr/epics', {
      name: 'Linker',
      ownerId: owner,
      projectId: project.id,
      color: 'teal',
      description: 'Links',
      targetStartDate: '2026-01-05',
      targetEndDate: '2026-03-31',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ownerId: owner,
      projectId: project.id,
      color: 'teal',
      status: 'PLANNING',
      tags: [],
      targetStartDate: '2026-01-05',
      targetEndDate: '2026-03-31',
      owner: {
        id: owner,
        fullName: 'Grace Hopper',
        email: 'grace@example.test',
        jobTitle: 'Admiral',
        department: 'Navy',
        avatar: 'blob-1',
      },
    });
    const unknownOwner = await a.client.post('/hr/epics', { name: 'Nobody', ownerId: UNKNOWN_ID });
    expect(unknownOwner.status).toBe(400);
    expect(unknownOwner.body.detail).toContain(UNKNOWN_ID);
    expect(unknownOwner.body.errors).toEqual([{ field: 'ownerId', reason: expect.any(String) }]);
  });

  it('featureCount, taskCount and progress come from the epic’s features and tasks', async () => {
    const e = (await a.client.post('/hr/epics', { name: 'Counted' })).body;
    const [f1, f2] = await postAll(a.client, '/hr/features', [
      { name: 'f1', epicId: e.id },
      { name: 'f2', epicId: e.id },
    ]);
    await createTask(a.client, { title: 't1', featureId: f1.id, status: 'DONE' });
    await createTask(a.client, { title: 't2', featureId: f2.id, status: 'DONE' });
    await createTask(a.client, { title: 't3', featureId: f2.id });
    await createTask(a.client, { title: 'direct', epicId: e.id, status: 'IN_PROGRESS' });
    const read = (await a.client.get(`/hr/epics/find/${e.id}`)).body;
    expect(read).toMatchObject({ featureCount: 2, taskCount: 4, completedTaskCount: 2, progress: 50 });
  });

  it('POST /hr/epics: bad input is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ priority: 1 }, 'name'],
      [{ name: 'x', priority: 'HIGH' }, 'priority'],
      [{ name: 'x', priority: 1.5 }, 'priority'],
      [{ name: 'x', status: 'DONE' }, 'status'],
      [{ name: 'x', tags: [true] }, 'tags'],
      [{ name: 'x', targetStartDate: '2026-02-30' }, 'targetStartDate'],
      [{ name: 'x', targetEndDate: 'tomorrow' }, 'targetEndDate'],
      [{ name: 'x', targetStartDate: '2026-05-01', targetEndDate: '2026-04-01' }, 'targetEndDate'],
      [{ name: 'x', ownerId: 'boss' }, 'ownerId'],
      [{ name: 'x', projectId: UNKNOWN_ID }, 'projectId'],
    ] as [object, string][]) {
      const res = await a.client.post('/hr/epics', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    // A single string where a list is expected is the wrong JSON type (GraphQL alone would coerce it).
    const lone = await a.client.post('/hr/epics', { name: 'x', tags: 'a' });
    expectErrorBody(lone, 400);
    expect(lone.body.errors).toEqual([{ field: 'tags', reason: expect.stringContaining('array') }]);
  });

  it('a GraphQL status change appends STATUS_CHANGE; moving to another project moves its tasks', async () => {
    const other = (await a.client.post('/hr/projects', { name: 'Other project' })).body;
    const e = (await a.client.post('/hr/epics', { name: 'Mover', projectId: project.id })).body;
    const f = (await a.client.post('/hr/features', { name: 'mf', epicId: e.id })).body;
    const task = await createTask(a.client, { title: 'mt', featureId: f.id, status: 'DONE' });
    expect(task).toMatchObject({ epicId: e.id, projectId: project.id });
    const data = await gql(
      a.client,
      `mutation($id: ID!, $i: UpdateEpicInput!) { updateEpic(id: $id, input: $i) { status projectId events { type description } } }`,
      { id: e.id, i: { status: 'IN_PROGRESS', projectId: other.id } },
    );
    expect(data.updateEpic.projectId).toBe(other.id);
    expect(data.updateEpic.events.map((x: any) => [x.type, x.description])).toEqual([
      ['CREATE', expect.any(String)],
      ['STATUS_CHANGE', 'PLANNING -> IN_PROGRESS'],
      ['UPDATE', expect.stringContaining('projectId')],
    ]);
    const moved = await gql(a.client, `query($id: ID!) { task(id: $id) { projectId events { type } } }`, {
      id: task.id,
    });
    expect(moved.task.projectId).toBe(other.id);
    expect(moved.task.events.map((x: any) => x.type)).toEqual(['CREATE', 'UPDATE']);
    const projects = (await a.client.get(`/hr/projects/find?ids=${other.id}`)).body;
    expect(projects[0]).toMatchObject({ epicCount: 1, taskCount: 1, completedTaskCount: 1, progress: 100 });
  });

  it('GET /hr/epics/active (PLANNING or IN_PROGRESS), by-status, by-owner and by-project', async () => {
    const t = await server.tenant('Epic lists');
    const o = await createEmployee(t.client, { firstName: 'Olga' });
    const p = (await t.client.post('/hr/projects', { name: 'P' })).body;
    const epics = await postAll(t.client, '/hr/epics', [
      { name: 'planning', status: 'PLANNING', ownerId: o },
      { name: 'doing', status: 'IN_PROGRESS', projectId: p.id },
      { name: 'paused', status: 'ON_HOLD', ownerId: o, projectId: p.id },
      { name: 'done', status: 'COMPLETED' },
      { name: 'dropped', status: 'CANCELLED' },
    ]);
    const names = async (path: string) => {
      const res = await t.client.get(path);
      expect(res.status).toBe(200);
      for (const e of res.body) expectKeys(e, EPIC_KEYS);
      return res.body.map((e: any) => e.name);
    };
    expect(await names('/hr/epics/active')).toEqual(['planning', 'doing']);
    expect(await names('/hr/epics/by-status/ON_HOLD')).toEqual(['paused']);
    expect(await names('/hr/epics/by-status/CANCELLED')).toEqual(['dropped']);
    expect(await names(`/hr/epics/by-owner/${o}`)).toEqual(['planning', 'paused']);
    expect(await names(`/hr/epics/by-project/${p.id}`)).toEqual(['doing', 'paused']);
    expect(await names(`/hr/epics/by-owner/${UNKNOWN_ID}`)).toEqual([]);
    expect(await names('/hr/epics/by-project/junk')).toEqual([]);
    expectErrorBody(await t.client.get('/hr/epics/by-status/DONE'), 400);
    const owned = (await t.client.get(`/hr/epics/by-owner/${o}`)).body[0];
    expect(owned.owner).toEqual({
      id: o,
      fullName: 'Olga',
      email: null,
      jobTitle: null,
      department: null,
      avatar: null,
    });
    expect(epics).toHaveLength(5);
  });

  it('S1, S2, S4, S6, S7, S8 and S9', async () => {
    const t = await server.tenant('Epic family');
    const [x, y, z] = await postAll(t.client, '/hr/epics', [
      { name: 'x-ray', priority: 1, tags: ['a'] },
      { name: 'yankee', priority: 5, tags: ['b'], targetEndDate: '2026-06-30' },
      { name: 'zulu', priority: 3, status: 'ON_HOLD' },
    ]);
    expect((await t.client.get(`/hr/epics/find?ids=${z.id},${x.id}`)).body.map((e: any) => e.name)).toEqual([
      'zulu',
      'x-ray',
    ]);
    expectErrorBody(await t.client.get('/hr/epics/find'), 400);
    expect((await t.client.get('/hr/epics/find-all')).body).toHaveLength(3);
    expect((await t.client.get(`/hr/epics/find-list?ids=${y.id}`)).body.map((e: any) => e.id)).toEqual([
      y.id,
    ]);
    expect((await t.client.get('/hr/epics/find-list')).body).toEqual([]);
    const s6 = await t.client.get('/hr/epics/dynamic-search?filters=priority:gt:1&sort=priority,desc');
    expect(s6.body.content.map((e: any) => e.name)).toEqual(['yankee', 'zulu']);
    expectKeys(s6.body.content[0], EPIC_KEYS);
    const s6dates = await t.client.get('/hr/epics/dynamic-search?filters=targetEndDate:lte:2026-07-01');
    expect(s6dates.body.content.map((e: any) => e.name)).toEqual(['yankee']);
    expectErrorBody(await t.client.get('/hr/epics/dynamic-search?filters=targetEndDate:lte:soon'), 400);
    const s7 = await t.client.post('/hr/epics/dynamic-search', { filters: { tags: 'a' }, search: ['RAY'] });
    expect(s7.body.content.map((e: any) => e.name)).toEqual(['x-ray']);
    expectErrorBody(await t.client.post('/hr/epics/dynamic-search', { filters: { owner: 'x' } }), 400);
    const csv = await t.client.get('/hr/epics/csv-export?filters=status:eq:ON_HOLD');
    expect(csv.status).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['ownerId', 'projectId', 'priority', 'targetEndDate']),
    );
    expect(lines[1]).toContain('zulu');
    expect((await t.client.delete(`/hr/epics/delete-list?ids=${x.id},${UNKNOWN_ID}`)).status).toBe(204);
    expect((await t.client.get('/hr/epics/find-all')).body).toHaveLength(2);
    expectErrorBody(await t.client.delete('/hr/epics/delete-list'), 400);
  });

  it('project scope: a user sees epics of the projects they may access (and those of no project)', async () => {
    const p1 = (await a.client.post('/hr/projects', { name: 'Scoped 1' })).body;
    const p2 = (await a.client.post('/hr/projects', { name: 'Scoped 2' })).body;
    const [e1, e2, e3] = await postAll(a.client, '/hr/epics', [
      { name: 'in p1', projectId: p1.id },
      { name: 'in p2', projectId: p2.id },
      { name: 'no project scope test' },
    ]);
    const f2 = (await a.client.post('/hr/features', { name: 'feature of p2 epic', epicId: e2.id })).body;
    await createTask(a.client, { title: 'p2 task', featureId: f2.id, status: 'DONE' });
    const user = await a.userWith(['READ_EPICS', 'CREATE_EPICS', 'READ_FEATURES', 'READ_PROJECTS'], {
      projectAccess: [p1.id],
    });
    const seen = (await user.client.get(`/hr/epics/find?ids=${e1.id},${e2.id},${e3.id}`)).body;
    expect(seen.map((e: any) => e.id)).toEqual([e1.id, e3.id]);
    expectErrorBody(await user.client.get(`/hr/epics/find/${e2.id}`), 404);
    expect((await user.client.get(`/hr/epics/by-project/${p2.id}`)).body).toEqual([]);
    expect((await user.client.get('/hr/epics/find-all')).body.map((e: any) => e.id)).not.toContain(e2.id);
    expect(
      (await user.client.get(`/hr/epics/dynamic-search?filters=projectId:eq:${p2.id}`)).body.totalElements,
    ).toBe(0);
    // Derived values show only what the user may see, as if the rest were absent.
    const feature = (await user.client.get(`/hr/features/find/${f2.id}`)).body;
    expect(feature).toMatchObject({ epicId: e2.id, epic: null, taskCount: 0 });
    const [found] = (await user.client.get(`/hr/features/dynamic-search?filters=id:eq:${f2.id}`)).body
      .content;
    expect(found).toMatchObject({ epicId: e2.id, epic: null, taskCount: 0, progress: 0 });
    const shown = await a.client.get(`/hr/features/find/${f2.id}`);
    expect(shown.body).toMatchObject({ epic: { id: e2.id, name: 'in p2' }, taskCount: 1, progress: 100 });
    const projects = (await user.client.get(`/hr/projects/find?ids=${p1.id},${p2.id}`)).body;
    expect(projects.map((p: any) => [p.epicCount, p.taskCount])).toEqual([
      [1, 0],
      [0, 0],
    ]);
    expect((await user.client.post('/hr/epics', { name: 'ok', projectId: p1.id })).status).toBe(201);
    expectErrorBody(await user.client.post('/hr/epics', { name: 'not mine', projectId: p2.id }), 403);
  });

  it('403 without EPICS permissions', async () => {
    const e = (await a.client.post('/hr/epics', { name: 'guarded' })).body;
    const user = await a.userWith(['READ_PROJECTS']);
    for (const path of [
      '/hr/epics/find-all',
      `/hr/epics/find?ids=${e.id}`,
      '/hr/epics/find-list',
      '/hr/epics/active',
      `/hr/epics/by-owner/${owner}`,
      `/hr/epics/by-project/${project.id}`,
      '/hr/epics/by-status/PLANNING',
      '/hr/epics/dynamic-search',
      '/hr/epics/csv-export',
    ])
      expectErrorBody(await user.client.get(path), 403);
    expectErrorBody(await user.client.post('/hr/epics', { name: 'x' }), 403);
    expectErrorBody(await user.client.post('/hr/epics/dynamic-search', {}), 403);
    expectErrorBody(await user.client.delete(`/hr/epics/delete-list?ids=${e.id}`), 403);
  });

  it('another tenant can neither read, list, search, export nor delete these epics', async () => {
    const e = (
      await a.client.post('/hr/epics', { name: 'secret epic', ownerId: owner, projectId: project.id })
    ).body;
    const b = await server.tenant('Other');
    expectErrorBody(await b.client.get(`/hr/epics/find/${e.id}`), 404);
    expect((await b.client.get(`/hr/epics/find?ids=${e.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/epics/find-all')).body).toEqual([]);
    expect((await b.client.get('/hr/epics/active')).body).toEqual([]);
    expect((await b.client.get(`/hr/epics/by-owner/${owner}`)).body).toEqual([]);
    expect((await b.client.get(`/hr/epics/by-project/${project.id}`)).body).toEqual([]);
    expect((await b.client.get('/hr/epics/by-status/PLANNING')).body).toEqual([]);
    expect((await b.client.get('/hr/epics/dynamic-search?search=secret')).body.totalElements).toBe(0);
    expect((await b.client.post('/hr/epics/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/hr/epics/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
    expectErrorBody(await b.client.post('/hr/epics', { name: 'x', projectId: project.id }), 400);
    expect((await b.client.delete(`/hr/epics/delete-list?ids=${e.id}`)).status).toBe(204);
    expect((await a.client.get(`/hr/epics/find/${e.id}`)).status).toBe(200);
  });
});
