import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { expectErrorBody } from '../support/http';
import { expectTenant } from './shapes';

const TENANT_FIELDS = `
  id name domain active owner logoUrl packageNameFromDomain
  logo { blobId height thumbnailBlobId width }
  lightThemeLogo { blobId height thumbnailBlobId width }
  created createdBy updated updatedBy subscription subscriptionExpires
  billingInfo {
    address { city country houseNumber id postalCode street latitude longitude }
    bank bic cocNumber email iban phone vatNumber type
    contacts { department email firstName id lastName phone }
  }
  scopes {
    assetManagement calendar clients communications concepts configurator crm environment finance
    hr inventory production products projects reporting subsidiaries suppliers support tasks
  }
  settings {
    accentColor code defaultCountry defaultCurrency defaultLanguage defaultProductVisibility
    defaultTimezone defaultVat exchangeRateSyncEnabled shopEnabled defaultPaymentTermDays reminderDays
    eInvoiceFormat
    shopSettings {
      bannerImageId bannerSubtitle bannerTitle returnPolicy shopDescription termsAndConditions
      enabledPaymentMethods freeShippingThreshold shippingFlatRate
    }
  }
  tenantRoles { name description permissions { appPermissions crmPermissions assetManagementPermissions
    calendarPermissions communicationsPermissions configuratorPermissions financePermissions hrPermissions
    inventoryPermissions productionPermissions productsPermissions projectsPermissions reportingPermissions } }
`;

const USER_FIELDS = `id email firstName lastName language hasFullAccess verified lastLogin status roles
  projectAccess subsidiaryAccess profile { displayName avatar { blobId width } logo { blobId } } events { type description }`;

const status = (res: any) => res.body.errors?.[0]?.extensions?.status;

describe('Tenant and users over GraphQL', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Org');
  });
  afterAll(() => server.close());

  it('tenant: any user reads its own tenant with every documented field', async () => {
    const u = await a.userWith([]);
    const res = await u.client.graphql(`{ tenant { ${TENANT_FIELDS} } }`);
    expect(res.body.errors).toBeUndefined();
    const t = res.body.data!.tenant;
    expectTenant(t);
    expect(t).toMatchObject({
      id: a.tenantId,
      owner: a.adminEmail,
      active: true,
      subscription: 'TRIAL',
      billingInfo: null,
      logo: null,
      packageNameFromDomain: null,
    });
    expect(Object.values(t.scopes).every((v) => v === true)).toBe(true);
    expect(t.settings).toMatchObject({ shopEnabled: false, exchangeRateSyncEnabled: false });
    expect(t.settings.shopSettings.enabledPaymentMethods).toEqual([]);
    expect(status(await u.client.withToken(undefined).graphql('{ tenant { id } }'))).toBe(401);
  });

  it('updateTenant: super-admins change branding, billing, scopes and settings', async () => {
    const t = await server.tenant('Brand');
    const { image: logo } = await storedFile(server.baseUrl, t, { width: 10, height: 20 });
    const res = await t.client.graphql(
      `mutation($i: UpdateTenantInput!) { updateTenant(input: $i) { ${TENANT_FIELDS} } }`,
      {
        i: {
          domain: 'App.Acme-Corp.com',
          // Dimensions and thumbnail are the stored image's, whatever is sent.
          logo: { blobId: logo.blobId, width: 99, height: 99 },
          subscription: 'ACTIVE',
          subscriptionExpires: '2027-01-01T00:00:00.000Z',
          billingInfo: { iban: 'NL00BANK0123456789', type: 'COMPANY', address: { city: 'Utrecht' } },
          scopes: { hr: false },
          settings: { defaultCurrency: 'EUR', shopSettings: { enabledPaymentMethods: ['INVOICE'] } },
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    const tenant = res.body.data!.updateTenant;
    expectTenant(tenant);
    expect(tenant).toMatchObject({
      domain: 'App.Acme-Corp.com',
      packageNameFromDomain: 'com.acme_corp.app',
      logo: { blobId: logo.blobId, width: 10, height: 20, thumbnailBlobId: logo.thumbnailBlobId },
      subscription: 'ACTIVE',
      subscriptionExpires: '2027-01-01T00:00:00.000Z',
      billingInfo: { iban: 'NL00BANK0123456789', type: 'COMPANY', contacts: [], bank: null },
      updatedBy: t.adminEmail,
    });
    expect(tenant.billingInfo.address.city).toBe('Utrecht');
    expect(tenant.scopes.hr).toBe(false);
    expect(tenant.scopes.crm).toBe(true);
    expect(tenant.settings.defaultCurrency).toBe('EUR');
    expect(tenant.settings.shopSettings.enabledPaymentMethods).toEqual(['INVOICE']);
    const again = await t.client.graphql(`{ tenant { scopes { hr crm } name } }`);
    expect(again.body.data!.tenant.scopes).toEqual({ hr: false, crm: true });

    const roleAdmin = await t.userWith(['UPDATE_ROLES', 'UPDATE_USERS']);
    const denied = await roleAdmin.client.graphql(
      'mutation { updateTenant(input: { name: "Mine" }) { id } }',
    );
    expect(status(denied)).toBe(403);
    const bad = await t.client.graphql('mutation { updateTenant(input: { name: "" }) { id } }');
    expect(status(bad)).toBe(400);
    // Another tenant is unchanged.
    expect((await a.client.graphql('{ tenant { domain } }')).body.data!.tenant.domain).toBeNull();
  });

  it('createUser: CREATE_USERS adds a user; duplicates 409, unknown roles 400, SUPER_ADMIN needs super-admin', async () => {
    await a.client.post('/roles/tenant', {
      name: 'Staff',
      permissions: { configuratorPermissions: ['READ_CONCEPTS'] },
    });
    const creator = await a.userWith(['CREATE_USERS']);
    const create = (client: any, input: Record<string, unknown>) =>
      client.graphql(`mutation($i: CreateUserInput!) { createUser(input: $i) { ${USER_FIELDS} } }`, {
        i: input,
      });
    const { image: avatar } = await storedFile(server.baseUrl, creator, { width: 1, height: 3 });
    const res = await create(creator.client, {
      email: 'New.Person@Example.test',
      firstName: 'New',
      roles: ['Staff'],
      profile: { displayName: 'Newbie', avatar: { blobId: avatar.blobId, width: 1 } },
    });
    expect(res.body.errors).toBeUndefined();
    const user = res.body.data!.createUser;
    expect(user).toMatchObject({
      email: 'new.person@example.test',
      firstName: 'New',
      lastName: null,
      roles: ['Staff'],
      status: 'ACTIVE',
      verified: true,
      hasFullAccess: false,
      profile: { displayName: 'Newbie', avatar: { blobId: avatar.blobId, width: 1 }, logo: null },
    });
    expect(user.events.map((e: any) => e.type)).toEqual(['CREATE']);
    expect(status(await create(creator.client, { email: 'new.person@example.test' }))).toBe(409);
    expect(status(await create(creator.client, { email: 'other@example.test', roles: ['Ghost'] }))).toBe(400);
    expect(
      status(await create(creator.client, { email: 'boss2@example.test', roles: ['SUPER_ADMIN'] })),
    ).toBe(403);
    expect(status(await create(creator.client, { email: 'not an email' }))).toBe(400);
    expect(status(await create((await a.userWith([])).client, { email: 'x@example.test' }))).toBe(403);
    expect(
      (await create(a.client, { email: 'boss2@example.test', roles: ['SUPER_ADMIN'] })).body.errors,
    ).toBeUndefined();
  });

  it('users, userPage, searchUsers: READ_USERS; only this tenant', async () => {
    const reader = await a.userWith(['READ_USERS']);
    const page = await reader.client.graphql(
      '{ userPage(search: "admin-", pageSize: 5) { totalElements content { email } } }',
    );
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data!.userPage.content.map((u: any) => u.email)).toEqual([a.adminEmail]);
    const search = await reader.client.graphql(
      'query($i: SearchInput) { searchUsers(input: $i) { totalElements content { email roles } } }',
      { i: { filters: [{ field: 'roles', op: 'eq', value: 'SUPER_ADMIN' }] } },
    );
    expect(search.body.data!.searchUsers.content.map((u: any) => u.email)).toContain(a.adminEmail);
    expect(status(await (await a.userWith([])).client.graphql('{ allUsers { id } }'))).toBe(403);
    const other = await server.tenant('Strangers');
    const cross = await other.client.graphql('query($ids: [ID!]!) { users(ids: $ids) { id } }', {
      ids: [a.adminId],
    });
    expect(cross.body.data!.users).toEqual([]);
    expect(
      (await other.client.graphql('{ allUsers { email } }')).body.data!.allUsers.map((u: any) => u.email),
    ).toEqual([other.adminEmail]);
    expect(
      (await other.client.graphql(`mutation { deleteUser(id: "${a.adminId}") }`)).body.data!.deleteUser,
    ).toBe(false);
  });

  it('updateUser: UPDATE_USERS changes profile and status; a suspended user is refused from its next request', async () => {
    const t = await server.tenant('Suspend');
    const u = await t.userWith([]);
    const editor = await t.userWith(['UPDATE_USERS']);
    expect((await u.client.get('/access-control/my-access')).status).toBe(200);
    const res = await editor.client.graphql(
      `mutation($id: ID!, $i: UpdateUserInput!) { updateUser(id: $id, input: $i) { ${USER_FIELDS} } }`,
      { id: u.userId, i: { status: 'SUSPENDED', language: 'nl', profile: { displayName: 'Gone' } } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.updateUser).toMatchObject({ status: 'SUSPENDED', language: 'nl' });
    expect(res.body.data!.updateUser.events.map((e: any) => e.type)).toEqual([
      'CREATE',
      'STATUS_CHANGE',
      'UPDATE',
    ]);
    expectErrorBody(await u.client.get('/access-control/my-access'), 401);
    const none = await t.userWith([]);
    expect(
      status(
        await none.client.graphql(
          `mutation { updateUser(id: "${u.userId}", input: { language: "en" }) { id } }`,
        ),
      ),
    ).toBe(403);
  });

  it('the last active super-admin can be neither suspended nor deleted; nobody deletes itself', async () => {
    const t = await server.tenant('LastAdmin');
    const editor = await t.userWith(['UPDATE_USERS', 'DELETE_USERS']);
    const suspend = await editor.client.graphql(
      `mutation { updateUser(id: "${t.adminId}", input: { status: DISABLED }) { status } }`,
    );
    expect(status(suspend)).toBe(409);
    const del = await editor.client.graphql(`mutation { deleteUser(id: "${t.adminId}") }`);
    expect(status(del)).toBe(409);
    const self = await editor.client.graphql(`mutation { deleteUser(id: "${editor.userId}") }`);
    expect(status(self)).toBe(409);
    const stillThere = await t.client.graphql('{ me { status roles } }');
    expect(stillThere.body.data!.me).toEqual({ status: 'ACTIVE', roles: ['SUPER_ADMIN'] });
    const victim = await t.userWith([]);
    expect(
      (await editor.client.graphql(`mutation { deleteUser(id: "${victim.userId}") }`)).body.data!.deleteUser,
    ).toBe(true);
    expectErrorBody(await victim.client.get('/access-control/my-access'), 401);
  });
});
