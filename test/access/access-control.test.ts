import { randomUUID } from 'node:crypto';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { expectUser } from './shapes';

/** Access lists name real records: an HR project or a subsidiary of the tenant. */
async function newProject(t: TestTenant): Promise<string> {
  return (await t.client.post('/hr/projects', { name: `Project ${randomUUID().slice(0, 8)}` })).body.id;
}
async function newSubsidiary(t: TestTenant): Promise<string> {
  const res = await t.client.graphql(
    'mutation($i: SubsidiaryInput!) { createSubsidiary(input: $i) { id } }',
    {
      i: { name: `Subsidiary ${randomUUID().slice(0, 8)}` },
    },
  );
  return res.body.data!.createSubsidiary.id;
}

describe('Access control', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Access');
  });
  afterAll(() => server.close());

  it('GET /access-control/my-access: a limited user sees its own lists', async () => {
    const p = randomUUID();
    const s = randomUUID();
    const u = await a.userWith([], { projectAccess: [p], subsidiaryAccess: [s] });
    const res = await u.client.get('/access-control/my-access');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessibleProjectIds: [p],
      accessibleSubsidiaryIds: [s],
      hasFullAccess: false,
    });
  });

  it('GET /access-control/my-access: full access lists every subsidiary plus the own lists', async () => {
    const t = await server.tenant('FullAccess');
    const sub = await t.client.graphql(
      'mutation($i: SubsidiaryInput!) { createSubsidiary(input: $i) { id } }',
      {
        i: { name: 'North' },
      },
    );
    const subId = sub.body.data!.createSubsidiary.id;
    const own = randomUUID();
    const u = await t.userWith([], { hasFullAccess: true, subsidiaryAccess: [own] });
    const res = await u.client.get('/access-control/my-access');
    expect(res.status).toBe(200);
    expect(res.body.hasFullAccess).toBe(true);
    expect(res.body.accessibleSubsidiaryIds.sort()).toEqual([subId, own].sort());
    expect(res.body.accessibleProjectIds).toEqual(expect.any(Array));
    // Another tenant's subsidiaries never appear.
    const other = await a.client.get('/access-control/my-access');
    expect(other.body.accessibleSubsidiaryIds).not.toContain(subId);
    expectErrorBody(await u.client.withToken(undefined).get('/access-control/my-access'), 401);
  });

  it('PUT then GET /access-control/projects/{id}/users: direct holders and inherited full access', async () => {
    const t = await server.tenant('Projects');
    const x = await t.userWith([]);
    const y = await t.userWith([]);
    const z = await t.userWith([], { hasFullAccess: true });
    const project = await newProject(t);
    const put = await t.client.put(`/access-control/projects/${project}/users`, {
      userEmails: [x.email, y.email.toUpperCase()],
      tenantId: randomUUID(),
    });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    const res = await t.client.get(`/access-control/projects/${project}/users`);
    expect(res.status).toBe(200);
    const byEmail = Object.fromEntries(res.body.map((e: any) => [e.email, e]));
    expect(byEmail[x.email]).toEqual({
      email: x.email,
      firstName: null,
      lastName: null,
      hasFullAccess: false,
      isDirect: true,
      inheritedFrom: null,
    });
    expect(byEmail[y.email].isDirect).toBe(true);
    expect(byEmail[z.email]).toMatchObject({
      isDirect: false,
      inheritedFrom: 'FULL_ACCESS',
      hasFullAccess: true,
    });
    expect(byEmail[t.adminEmail]).toMatchObject({ isDirect: false, hasFullAccess: true });
    // Direct holders come first.
    expect(res.body.slice(0, 2).every((e: any) => e.isDirect)).toBe(true);

    // Replacing the set removes y and keeps x; y's own list no longer holds the project.
    expect(
      (await t.client.put(`/access-control/projects/${project}/users`, { userEmails: [x.email] })).status,
    ).toBe(204);
    const after = await t.client.get(`/access-control/projects/${project}/users`);
    expect(after.body.filter((e: any) => e.isDirect).map((e: any) => e.email)).toEqual([x.email]);
    expect((await y.client.get('/access-control/my-access')).body.accessibleProjectIds).toEqual([]);
    expect((await x.client.get('/access-control/my-access')).body.accessibleProjectIds).toEqual([project]);
  });

  it('PUT .../users with an unknown e-mail is 404 and changes nothing', async () => {
    const t = await server.tenant('Unknown');
    const x = await t.userWith([]);
    const sub = await newSubsidiary(t);
    await t.client.put(`/access-control/subsidiaries/${sub}/users`, { userEmails: [x.email] });
    const res = await t.client.put(`/access-control/subsidiaries/${sub}/users`, {
      userEmails: ['nobody@example.test'],
    });
    expectErrorBody(res, 404);
    expect(res.body.detail).toContain('nobody@example.test');
    const list = await t.client.get(`/access-control/subsidiaries/${sub}/users`);
    expect(list.body.filter((e: any) => e.isDirect).map((e: any) => e.email)).toEqual([x.email]);
    expectErrorBody(await t.client.put(`/access-control/subsidiaries/${sub}/users`, {}), 400);
    expectErrorBody(
      await t.client.put(`/access-control/subsidiaries/${sub}/users`, { userEmails: 'x' }),
      400,
    );
    expectErrorBody(await t.client.get('/access-control/subsidiaries/not-an-id/users'), 404);
    expectErrorBody(await t.client.put('/access-control/projects/not-an-id/users', { userEmails: [] }), 404);
  });

  it('a user of another tenant is unknown here', async () => {
    const other = await server.tenant('Other');
    const stranger = await other.userWith([]);
    const id = await newProject(a);
    expectErrorBody(
      await a.client.put(`/access-control/projects/${id}/users`, { userEmails: [stranger.email] }),
      404,
    );
    expectErrorBody(
      await a.client.put(`/access-control/users/${stranger.email}/full-access`, { hasFullAccess: true }),
      404,
    );
    const list = await a.client.get(`/access-control/projects/${id}/users`);
    expect(list.body.map((e: any) => e.email)).not.toContain(stranger.email);
  });

  it('PUT /access-control/users/{email}/full-access changes the flag; it applies on the next request', async () => {
    const u = await a.userWith([]);
    expect((await u.client.get('/access-control/my-access')).body.hasFullAccess).toBe(false);
    const res = await a.client.put(`/access-control/users/${encodeURIComponent(u.email)}/full-access`, {
      hasFullAccess: true,
    });
    expect(res.status).toBe(200);
    expectUser(res.body, u.email);
    expect(res.body.hasFullAccess).toBe(true);
    expect(res.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect(res.body.events[1].description).toContain('hasFullAccess');
    expect((await u.client.get('/access-control/my-access')).body.hasFullAccess).toBe(true);
    expectErrorBody(await a.client.put(`/access-control/users/${u.email}/full-access`, {}), 400);
    expectErrorBody(
      await a.client.put(`/access-control/users/${u.email}/full-access`, { hasFullAccess: 'yes' }),
      400,
    );
    expectErrorBody(
      await a.client.put('/access-control/users/nobody@example.test/full-access', { hasFullAccess: true }),
      404,
    );
    expectErrorBody(
      await a.client.put('/access-control/users/not-an-email/full-access', { hasFullAccess: true }),
      404,
    );
  });

  it('PUT /access-control/users/{email}/project-access and /subsidiary-access replace the lists', async () => {
    const u = await a.userWith([], { projectAccess: [randomUUID()] });
    const p1 = await newProject(a);
    const p2 = await newProject(a);
    const res = await a.client.put(`/access-control/users/${u.email}/project-access`, {
      projectIds: [p1, p2, p1],
    });
    expect(res.status).toBe(200);
    expectUser(res.body, u.email);
    expect(res.body.projectAccess).toEqual([p1, p2]);
    const s1 = await newSubsidiary(a);
    const sres = await a.client.put(`/access-control/users/${u.email}/subsidiary-access`, {
      subsidiaryIds: [s1],
    });
    expect(sres.status).toBe(200);
    expect(sres.body.subsidiaryAccess).toEqual([s1]);
    expect(sres.body.projectAccess).toEqual([p1, p2]);
    expect((await u.client.get('/access-control/my-access')).body).toEqual({
      accessibleProjectIds: [p1, p2],
      accessibleSubsidiaryIds: [s1],
      hasFullAccess: false,
    });
    const bad = await a.client.put(`/access-control/users/${u.email}/project-access`, {
      projectIds: ['nope'],
    });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('projectIds');
    expectErrorBody(await a.client.put(`/access-control/users/${u.email}/subsidiary-access`, {}), 400);
    expectErrorBody(
      await a.client.put('/access-control/users/x@example.test/subsidiary-access', { subsidiaryIds: [] }),
      404,
    );
  });

  it('needs READ_USERS to read and UPDATE_USERS to change; my-access needs only a credential', async () => {
    const none = await a.userWith([]);
    const reader = await a.userWith(['READ_USERS']);
    const writer = await a.userWith(['UPDATE_USERS']);
    const id = await newProject(a);
    const sub = await newSubsidiary(a);
    expect((await none.client.get('/access-control/my-access')).status).toBe(200);
    expectErrorBody(await none.client.get(`/access-control/projects/${id}/users`), 403);
    expectErrorBody(await none.client.get(`/access-control/subsidiaries/${sub}/users`), 403);
    expect((await reader.client.get(`/access-control/projects/${id}/users`)).status).toBe(200);
    expectErrorBody(await reader.client.put(`/access-control/projects/${id}/users`, { userEmails: [] }), 403);
    expectErrorBody(
      await reader.client.put(`/access-control/subsidiaries/${sub}/users`, { userEmails: [] }),
      403,
    );
    for (const path of ['full-access', 'project-access', 'subsidiary-access']) {
      expectErrorBody(await reader.client.put(`/access-control/users/${none.email}/${path}`, {}), 403);
    }
    expect(
      (await writer.client.put(`/access-control/users/${none.email}/project-access`, { projectIds: [id] }))
        .status,
    ).toBe(200);
    expect(
      (await writer.client.put(`/access-control/subsidiaries/${sub}/users`, { userEmails: [] })).status,
    ).toBe(204);
  });
});
