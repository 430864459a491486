import { startServer, type TestServer, type TestTenant } from '../support/server';
import { createTask, gql, TASK_FIELDS, UNKNOWN_ID } from './helpers';

/** Tasks are GraphQL only; they carry the progress of features, epics and projects. */
describe('HR tasks (GraphQL)', () => {
  let server: TestServer;
  let a: TestTenant;
  let project: any;
  let epic: any;
  let feature: any;

  const update = (id: string, i: object) =>
    a.client.graphql(
      `mutation($id: ID!, $i: UpdateTaskInput!) { updateTask(id: $id, input: $i) { ${TASK_FIELDS} } }`,
      {
        id,
        i,
      },
    );
  const createRaw = (client: TestTenant['client'], i: object) =>
    client.graphql(`mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }`, { i });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Tasks');
    project = (await a.client.post('/hr/projects', { name: 'P' })).body;
    epic = (await a.client.post('/hr/epics', { name: 'E', projectId: project.id })).body;
    feature = (await a.client.post('/hr/features', { name: 'F', epicId: epic.id })).body;
  });
  afterAll(() => server.close());

  it('a task takes its epic from its feature and its project from its epic', async () => {
    const t = await createTask(a.client, { title: 'by feature' });
    expect(t).toMatchObject({ status: 'TODO', featureId: null, epicId: null, projectId: null });
    const f = await createTask(a.client, {
      title: 'under feature',
      featureId: feature.id,
      status: 'IN_PROGRESS',
    });
    expect(f).toMatchObject({
      featureId: feature.id,
      epicId: epic.id,
      projectId: project.id,
      status: 'IN_PROGRESS',
    });
    expect(f.events.map((e: any) => e.type)).toEqual(['CREATE']);
    const e = await createTask(a.client, { title: 'under epic', epicId: epic.id, projectId: project.id });
    expect(e).toMatchObject({ featureId: null, epicId: epic.id, projectId: project.id });
  });

  it('references that do not exist, or contradict the parent, are 400', async () => {
    const other = (await a.client.post('/hr/projects', { name: 'Other' })).body;
    for (const input of [
      { title: 'x', featureId: UNKNOWN_ID },
      { title: 'x', epicId: UNKNOWN_ID },
      { title: 'x', projectId: UNKNOWN_ID },
      { title: 'x', featureId: 'nope' },
      { title: 'x', featureId: feature.id, epicId: UNKNOWN_ID },
      { title: 'x', epicId: epic.id, projectId: other.id },
      { title: '' },
      { title: 'x', status: 'BLOCKED' },
    ]) {
      const res = await createRaw(a.client, input);
      expect(res.status).not.toBe(500);
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
    }
  });

  it('a status change appends STATUS_CHANGE and moves the progress of feature, epic and project', async () => {
    const p = (await a.client.post('/hr/projects', { name: 'Progress' })).body;
    const e = (await a.client.post('/hr/epics', { name: 'PE', projectId: p.id })).body;
    const f = (await a.client.post('/hr/features', { name: 'PF', epicId: e.id })).body;
    const tasks = [];
    for (let i = 0; i < 3; i++) tasks.push(await createTask(a.client, { title: `t${i}`, featureId: f.id }));
    const res = await update(tasks[0].id, { status: 'DONE' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateTask.events.map((x: any) => [x.type, x.description])).toEqual([
      ['CREATE', expect.any(String)],
      ['STATUS_CHANGE', 'TODO -> DONE'],
    ]);
    const read = async () => [
      (await a.client.get(`/hr/features/find/${f.id}`)).body,
      (await a.client.get(`/hr/epics/find/${e.id}`)).body,
      (await a.client.get(`/hr/projects/find?ids=${p.id}`)).body[0],
    ];
    for (const r of await read())
      expect(r).toMatchObject({ taskCount: 3, completedTaskCount: 1, progress: 33.33 });
    await update(tasks[1].id, { status: 'DONE' });
    for (const r of await read())
      expect(r).toMatchObject({ taskCount: 3, completedTaskCount: 2, progress: 66.67 });
    await gql(a.client, `mutation($id: ID!) { deleteTask(id: $id) }`, { id: tasks[2].id });
    for (const r of await read())
      expect(r).toMatchObject({ taskCount: 2, completedTaskCount: 2, progress: 100 });
  });

  it('when a feature changes epic its tasks follow, and the counts of both epics change', async () => {
    const e1 = (await a.client.post('/hr/epics', { name: 'from' })).body;
    const e2 = (await a.client.post('/hr/epics', { name: 'to', projectId: project.id })).body;
    const f = (await a.client.post('/hr/features', { name: 'moving', epicId: e1.id })).body;
    const t = await createTask(a.client, { title: 'passenger', featureId: f.id, status: 'DONE' });
    expect(t).toMatchObject({ epicId: e1.id, projectId: null });
    await gql(
      a.client,
      `mutation($id: ID!, $i: UpdateFeatureInput!) { updateFeature(id: $id, input: $i) { id } }`,
      {
        id: f.id,
        i: { epicId: e2.id },
      },
    );
    const moved = await gql(a.client, `query($id: ID!) { task(id: $id) { epicId projectId } }`, { id: t.id });
    expect(moved.task).toEqual({ epicId: e2.id, projectId: project.id });
    const [from, to] = (await a.client.get(`/hr/epics/find?ids=${e1.id},${e2.id}`)).body;
    expect(from).toMatchObject({ featureCount: 0, taskCount: 0 });
    expect(to).toMatchObject({ featureCount: 1, taskCount: 1, completedTaskCount: 1, progress: 100 });
    const res = await update(t.id, { epicId: e1.id });
    expect(res.body.errors?.[0].extensions?.status).toBe(400);
  });

  it('the task family is behind TASKS permissions and the project scope', async () => {
    const noTasks = await a.userWith(['READ_FEATURES']);
    const denied = await noTasks.client.graphql(`{ allTasks { id } }`);
    expect(denied.body.errors?.[0].extensions?.status).toBe(403);
    const scoped = await a.userWith(['READ_TASKS', 'CREATE_TASKS', 'READ_FEATURES'], { projectAccess: [] });
    const visible = await scoped.client.graphql(`{ allTasks { id projectId } }`);
    expect(visible.body.errors).toBeUndefined();
    expect(visible.body.data.allTasks.every((t: any) => t.projectId === null)).toBe(true);
    // The feature's epic lies in a project the user may not see: as if it did not exist.
    const res = await createRaw(scoped.client, { title: 'sneaky', featureId: feature.id });
    expect(res.body.errors?.[0].extensions?.status).toBe(400);
    const direct = await createRaw(scoped.client, { title: 'direct', projectId: project.id });
    expect(direct.body.errors?.[0].extensions?.status).toBe(403);
  });

  it('another tenant sees none of these tasks and cannot attach tasks to these features', async () => {
    const t = await createTask(a.client, { title: 'secret', featureId: feature.id });
    const b = await server.tenant('Other');
    const res = await b.client.graphql(
      `query($id: ID!) { task(id: $id) { id } allTasks { id } tasks(ids: [$id]) { id } }`,
      {
        id: t.id,
      },
    );
    expect(res.body.data).toEqual({ task: null, allTasks: [], tasks: [] });
    const attach = await createRaw(b.client, { title: 'x', featureId: feature.id });
    expect(attach.body.errors?.[0].extensions?.status).toBe(400);
    const del = await b.client.graphql(`mutation($id: ID!) { deleteTask(id: $id) }`, { id: t.id });
    expect(del.body.data.deleteTask).toBe(false);
  });
});
