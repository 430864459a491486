export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const nullOr = (v: unknown, check: (x: unknown) => boolean) => v === null || check(v);
const isString = (x: unknown) => typeof x === 'string';

/** Every documented User field is present (null when absent), plus the record's history and audit. */
export function expectUser(u: any, email: string): void {
  expect(Object.keys(u).sort()).toEqual(
    [
      'id',
      'tenantId',
      'email',
      'firstName',
      'lastName',
      'language',
      'hasFullAccess',
      'verified',
      'lastLogin',
      'status',
      'roles',
      'projectAccess',
      'subsidiaryAccess',
      'profile',
      'events',
      'created',
      'createdBy',
      'updated',
      'updatedBy',
    ].sort(),
  );
  expect(u.id).toMatch(UUID);
  expect(u.tenantId).toMatch(UUID);
  expect(u.email).toBe(email);
  for (const f of ['firstName', 'lastName', 'language']) expect(nullOr(u[f], isString)).toBe(true);
  expect(typeof u.hasFullAccess).toBe('boolean');
  expect(typeof u.verified).toBe('boolean');
  expect(nullOr(u.lastLogin, (x) => ISO.test(String(x)))).toBe(true);
  expect(typeof u.status).toBe('string');
  for (const f of ['roles', 'projectAccess', 'subsidiaryAccess', 'events'])
    expect(Array.isArray(u[f])).toBe(true);
  if (u.profile !== null) expect(Object.keys(u.profile).sort()).toEqual(['avatar', 'displayName', 'logo']);
  expect(u.created).toMatch(ISO);
  expect(u.updated).toMatch(ISO);
}

const IMAGE_REF = ['blobId', 'height', 'thumbnailBlobId', 'width'];

/** Every documented Tenant field, nested shapes included. */
export function expectTenant(t: any): void {
  expect(Object.keys(t).sort()).toEqual(
    [
      'active',
      'id',
      'domain',
      'name',
      'owner',
      'logoUrl',
      'packageNameFromDomain',
      'logo',
      'lightThemeLogo',
      'created',
      'updated',
      'createdBy',
      'updatedBy',
      'subscription',
      'subscriptionExpires',
      'billingInfo',
      'scopes',
      'settings',
      'tenantRoles',
    ].sort(),
  );
  for (const img of [t.logo, t.lightThemeLogo])
    if (img !== null) expect(Object.keys(img).sort()).toEqual(IMAGE_REF);
  expect(Object.keys(t.scopes)).toHaveLength(19);
  for (const v of Object.values(t.scopes)) expect(typeof v).toBe('boolean');
  expect(Object.keys(t.settings).sort()).toEqual(
    [
      'accentColor',
      'code',
      'defaultCountry',
      'defaultCurrency',
      'defaultLanguage',
      'defaultPaymentTermDays',
      'defaultProductVisibility',
      'defaultTimezone',
      'defaultVat',
      'eInvoiceFormat',
      'exchangeRateSyncEnabled',
      'reminderDays',
      'shopEnabled',
      'shopSettings',
    ].sort(),
  );
  expect(Object.keys(t.settings.shopSettings).sort()).toEqual(
    [
      'bannerImageId',
      'bannerSubtitle',
      'bannerTitle',
      'returnPolicy',
      'shopDescription',
      'termsAndConditions',
      'enabledPaymentMethods',
      'freeShippingThreshold',
      'shippingFlatRate',
    ].sort(),
  );
  expect(Array.isArray(t.settings.shopSettings.enabledPaymentMethods)).toBe(true);
  if (t.billingInfo !== null) {
    expect(Object.keys(t.billingInfo).sort()).toEqual(
      [
        'address',
        'bank',
        'bic',
        'cocNumber',
        'email',
        'iban',
        'phone',
        'vatNumber',
        'type',
        'contacts',
      ].sort(),
    );
    expect(Array.isArray(t.billingInfo.contacts)).toBe(true);
  }
  for (const role of t.tenantRoles) {
    expect(typeof role.name).toBe('string');
    expect('description' in role).toBe(true);
    expect(Object.keys(role.permissions)).toHaveLength(13);
  }
}
