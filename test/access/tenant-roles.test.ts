import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { expectTenant, expectUser } from './shapes';

const LISTS = [
  'appPermissions',
  'assetManagementPermissions',
  'calendarPermissions',
  'communicationsPermissions',
  'configuratorPermissions',
  'crmPermissions',
  'financePermissions',
  'hrPermissions',
  'inventoryPermissions',
  'productionPermissions',
  'productsPermissions',
  'projectsPermissions',
  'reportingPermissions',
];

describe('Tenant roles', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Roles');
  });
  afterAll(() => server.close());

  it('POST /roles/tenant adds a role and answers the Tenant (200) with every field', async () => {
    const res = await a.client.post('/roles/tenant', {
      name: 'Sales',
      description: 'Sales people',
      permissions: {
        crmPermissions: ['READ_LEADS', 'CREATE_LEADS', 'READ_LEADS'],
        appPermissions: ['READ_USERS'],
      },
      tenantId: '00000000-0000-0000-0000-000000000000',
    });
    expect(res.status).toBe(200);
    expectTenant(res.body);
    expect(res.body.id).toBe(a.tenantId);
    const role = res.body.tenantRoles.find((r: any) => r.name === 'Sales');
    expect(role.description).toBe('Sales people');
    expect(Object.keys(role.permissions).sort()).toEqual([...LISTS].sort());
    expect(role.permissions.crmPermissions).toEqual(['READ_LEADS', 'CREATE_LEADS']);
    expect(role.permissions.appPermissions).toEqual(['READ_USERS']);
    expect(role.permissions.hrPermissions).toEqual([]);
  });

  it('POST /roles/tenant: an existing name or SUPER_ADMIN is 409; bad permissions are 400', async () => {
    await a.client.post('/roles/tenant', { name: 'Dup', permissions: {} });
    expectErrorBody(await a.client.post('/roles/tenant', { name: 'Dup', permissions: {} }), 409);
    expectErrorBody(await a.client.post('/roles/tenant', { name: 'SUPER_ADMIN', permissions: {} }), 409);
    const unknown = await a.client.post('/roles/tenant', {
      name: 'X',
      permissions: { appPermissions: ['FLY'] },
    });
    expectErrorBody(unknown, 400);
    expect(unknown.body.detail).toContain('appPermissions');
    const misplaced = await a.client.post('/roles/tenant', {
      name: 'X',
      permissions: { appPermissions: ['READ_LEADS'] },
    });
    expectErrorBody(misplaced, 400);
    expect(misplaced.body.detail).toContain('crmPermissions');
    expectErrorBody(await a.client.post('/roles/tenant', { permissions: {} }), 400);
    expectErrorBody(await a.client.post('/roles/tenant', { name: '' }), 400);
    const tenant = await a.client.graphql('{ tenant { tenantRoles { name } } }');
    expect(tenant.body.data!.tenant.tenantRoles.map((r: any) => r.name)).not.toContain('X');
  });

  it('PUT /roles/tenant replaces the permissions of an existing role; unknown is 404', async () => {
    await a.client.post('/roles/tenant', {
      name: 'Editors',
      permissions: { configuratorPermissions: ['READ_CONCEPTS'] },
    });
    const res = await a.client.put('/roles/tenant', {
      name: 'Editors',
      permissions: { configuratorPermissions: ['READ_CONCEPTS', 'UPDATE_CONCEPTS'] },
    });
    expect(res.status).toBe(200);
    expectTenant(res.body);
    const role = res.body.tenantRoles.find((r: any) => r.name === 'Editors');
    expect(role.permissions.configuratorPermissions).toEqual(['READ_CONCEPTS', 'UPDATE_CONCEPTS']);
    expectErrorBody(await a.client.put('/roles/tenant', { name: 'Ghosts', permissions: {} }), 404);
    expectErrorBody(await a.client.put('/roles/tenant', { name: 'SUPER_ADMIN', permissions: {} }), 409);
    expectErrorBody(
      await a.client.put('/roles/tenant', {
        name: 'Editors',
        permissions: { crmPermissions: ['READ_USERS'] },
      }),
      400,
    );
  });

  it('a role change applies on the next request of its holders', async () => {
    await a.client.post('/roles/tenant', { name: 'Viewers', permissions: {} });
    const u = await a.userWith([]);
    expectErrorBody(await u.client.get('/concepts/find-all'), 403);
    const assigned = await a.client.patch(`/roles/tenant/assign/Viewers/${u.email}`);
    expect(assigned.status).toBe(200);
    expectUser(assigned.body, u.email);
    expect(assigned.body.roles).toContain('Viewers');
    expectErrorBody(await u.client.get('/concepts/find-all'), 403);
    await a.client.put('/roles/tenant', {
      name: 'Viewers',
      permissions: { configuratorPermissions: ['READ_CONCEPTS'] },
    });
    expect((await u.client.get('/concepts/find-all')).status).toBe(200);
    const removed = await a.client.patch(`/roles/tenant/remove/Viewers/${u.email}`);
    expect(removed.status).toBe(200);
    expect(removed.body.roles).not.toContain('Viewers');
    expect(removed.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expectErrorBody(await u.client.get('/concepts/find-all'), 403);
  });

  it('PATCH assign/remove: unknown role or e-mail is 404; repeating is harmless', async () => {
    await a.client.post('/roles/tenant', { name: 'Clerks', permissions: {} });
    const u = await a.userWith([]);
    expectErrorBody(await a.client.patch(`/roles/tenant/assign/Nope/${u.email}`), 404);
    expectErrorBody(await a.client.patch('/roles/tenant/assign/Clerks/nobody@example.test'), 404);
    expectErrorBody(await a.client.patch(`/roles/tenant/remove/Nope/${u.email}`), 404);
    expectErrorBody(await a.client.patch('/roles/tenant/remove/Clerks/nobody@example.test'), 404);
    await a.client.patch(`/roles/tenant/assign/Clerks/${u.email}`);
    const twice = await a.client.patch(`/roles/tenant/assign/Clerks/${u.email}`);
    expect(twice.body.roles.filter((r: string) => r === 'Clerks')).toHaveLength(1);
    const notHeld = await a.client.patch(`/roles/tenant/remove/Clerks/${a.adminEmail}`);
    expect(notHeld.status).toBe(200);
    expect(notHeld.body.roles).toEqual(['SUPER_ADMIN']);
  });

  it('needs CREATE_ROLES to add and UPDATE_ROLES to change or assign', async () => {
    const none = await a.userWith([]);
    const creator = await a.userWith(['CREATE_ROLES']);
    const updater = await a.userWith(['UPDATE_ROLES']);
    expectErrorBody(await none.client.post('/roles/tenant', { name: 'N1', permissions: {} }), 403);
    expectErrorBody(await updater.client.post('/roles/tenant', { name: 'N1', permissions: {} }), 403);
    expect((await creator.client.post('/roles/tenant', { name: 'N1', permissions: {} })).status).toBe(200);
    expectErrorBody(await creator.client.put('/roles/tenant', { name: 'N1', permissions: {} }), 403);
    expect((await updater.client.put('/roles/tenant', { name: 'N1', permissions: {} })).status).toBe(200);
    expectErrorBody(await creator.client.patch(`/roles/tenant/assign/N1/${none.email}`), 403);
    expect((await updater.client.patch(`/roles/tenant/assign/N1/${none.email}`)).status).toBe(200);
    expectErrorBody(await creator.client.patch(`/roles/tenant/remove/N1/${none.email}`), 403);
    // SUPER_ADMIN through the generic operation still needs the super-admin role.
    expectErrorBody(await updater.client.patch(`/roles/tenant/assign/SUPER_ADMIN/${updater.email}`), 403);
  });

  it('assign-super-admin / remove-super-admin: super-admins only; the last one stays (409)', async () => {
    const t = await server.tenant('Supers');
    const u = await t.userWith(['UPDATE_ROLES', 'CREATE_ROLES']);
    expectErrorBody(await u.client.post(`/roles/tenant/assign-super-admin/${u.email}`), 403);
    expectErrorBody(await u.client.post(`/roles/tenant/remove-super-admin/${t.adminEmail}`), 403);

    const last = await t.client.post(`/roles/tenant/remove-super-admin/${t.adminEmail}`);
    expectErrorBody(last, 409);
    const stillAdmin = await t.client.graphql('{ me { roles } }');
    expect(stillAdmin.body.data!.me.roles).toContain('SUPER_ADMIN');

    const made = await t.client.post(`/roles/tenant/assign-super-admin/${u.email}`);
    expect(made.status).toBe(200);
    expectUser(made.body, u.email);
    expect(made.body.roles).toContain('SUPER_ADMIN');
    // The new super-admin holds every permission from its next request on.
    expect((await u.client.get('/concepts/find-all')).status).toBe(200);

    const removedSelf = await t.client.post(`/roles/tenant/remove-super-admin/${t.adminEmail}`);
    expect(removedSelf.status).toBe(200);
    expect(removedSelf.body.roles).not.toContain('SUPER_ADMIN');
    expectErrorBody(await t.client.post(`/roles/tenant/assign-super-admin/${t.adminEmail}`), 403);
    expectErrorBody(await u.client.post(`/roles/tenant/remove-super-admin/${u.email}`), 409);
    expectErrorBody(await u.client.post('/roles/tenant/assign-super-admin/nobody@example.test'), 404);
    expectErrorBody(await u.client.post('/roles/tenant/remove-super-admin/nobody@example.test'), 404);
  });

  it('roles belong to their tenant', async () => {
    const b = await server.tenant('OtherRoles');
    await b.client.post('/roles/tenant', { name: 'OnlyInB', permissions: {} });
    const u = await a.userWith([]);
    expectErrorBody(await a.client.patch(`/roles/tenant/assign/OnlyInB/${u.email}`), 404);
    expectErrorBody(await a.client.put('/roles/tenant', { name: 'OnlyInB', permissions: {} }), 404);
    expect((await a.client.post('/roles/tenant', { name: 'OnlyInB', permissions: {} })).status).toBe(200);
    const mine = await a.client.graphql('{ tenant { id tenantRoles { name } } }');
    expect(mine.body.data!.tenant.id).toBe(a.tenantId);
    const theirs = await b.client.graphql('{ tenant { tenantRoles { name } } }');
    expect(theirs.body.data!.tenant.tenantRoles.map((r: any) => r.name)).toEqual(['OnlyInB']);
  });

  it('two super-admins removing each other at once: one keeps the role', async () => {
    const t = await server.tenant('Race');
    const u = await t.userWith([]);
    await t.client.post(`/roles/tenant/assign-super-admin/${u.email}`);
    const [x, y] = await Promise.all([
      t.client.post(`/roles/tenant/remove-super-admin/${u.email}`),
      u.client.post(`/roles/tenant/remove-super-admin/${t.adminEmail}`),
    ]);
    // Whichever runs second is refused: 409 when it raced the first, 403 when the first had already
    // taken its role away before it was authenticated.
    const statuses = [x.status, y.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const rolesOf = async (c: any) => (await c.graphql('{ me { roles } }')).body.data.me.roles as string[];
    const supers = [await rolesOf(t.client), await rolesOf(u.client)].filter((r) =>
      r.includes('SUPER_ADMIN'),
    );
    expect(supers).toHaveLength(1);
  });

  it('deleteTenantRole (GraphQL): DELETE_ROLES; holders lose the role; the deletion is audited', async () => {
    const t = await server.tenant('RoleDelete');
    await t.client.post('/roles/tenant', {
      name: 'Temp',
      permissions: { configuratorPermissions: ['READ_CONCEPTS'] },
    });
    const holder = await t.userWith([]);
    await t.client.patch(`/roles/tenant/assign/Temp/${holder.email}`);
    expect((await holder.client.get('/concepts/find-all')).status).toBe(200);
    const updater = await t.userWith(['UPDATE_ROLES']);
    const denied = await updater.client.graphql('mutation { deleteTenantRole(name: "Temp") { id } }');
    expect(denied.body.errors![0].extensions!.status).toBe(403);
    const res = await t.client.graphql(
      'mutation { deleteTenantRole(name: "Temp") { tenantRoles { name } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.deleteTenantRole.tenantRoles.map((r: any) => r.name)).not.toContain('Temp');
    expectErrorBody(await holder.client.get('/concepts/find-all'), 403);
    const me = await holder.client.graphql('{ me { roles } }');
    expect(me.body.data!.me.roles).not.toContain('Temp');
    const missing = await t.client.graphql('mutation { deleteTenantRole(name: "Temp") { id } }');
    expect(missing.body.errors![0].extensions!.status).toBe(404);
    const rows = await server.orm.em
      .getConnection()
      .execute(`select action from audit_log where tenant_id = ? and entity = 'TenantRole'`, [t.tenantId]);
    expect(rows).toEqual([{ action: 'DELETE' }]);
  });
});
