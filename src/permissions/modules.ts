/**
 * The tenant's functional areas (its module switches, `Tenant.scopes`): declared with the
 * permissions, which map each resource to its area (catalog.ts), and stored by the tenant's
 * settings (entities/tenant-settings.ts), which imports them from here.
 */
/** The functional areas; a front end shows the areas that are on. */
export const TENANT_SCOPE_NAMES = [
  'assetManagement',
  'calendar',
  'clients',
  'communications',
  'concepts',
  'configurator',
  'crm',
  'environment',
  'finance',
  'hr',
  'inventory',
  'production',
  'products',
  'projects',
  'reporting',
  'subsidiaries',
  'suppliers',
  'support',
  'tasks',
] as const;
export type TenantScopeName = (typeof TENANT_SCOPE_NAMES)[number];
