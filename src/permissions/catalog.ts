import { registerEnumType } from 'type-graphql';
import type { TenantScopeName } from '../entities/tenant-settings';

/**
 * The permission catalog (docs/conventions.md, "Permissions"). A permission is `<VERB>_<RESOURCE>`; each
 * resource belongs to one of the thirteen permission lists of a tenant role. The resources the
 * specification names as examples (APIKEYS, ASSETS, ...) are members alongside the ones our
 * operations check.
 */
export const VERBS = ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const;
export type Verb = (typeof VERBS)[number];

export const PERMISSION_LISTS = {
  appPermissions: ['USERS', 'ROLES', 'SUBSIDIARIES', 'APIKEYS', 'WEBHOOKS', 'AUDIT_LOG'],
  assetManagementPermissions: ['ASSETS'],
  calendarPermissions: ['CALENDAR_EVENTS'],
  communicationsPermissions: ['INBOX', 'SENT_MAILS', 'NOTIFICATIONS', 'TEMPLATES'],
  configuratorPermissions: ['CONCEPTS', 'TYPES', 'COVERAGES'],
  crmPermissions: ['CONTACT_FORMS', 'ACTIVITIES', 'BOOKINGS', 'LEADS', 'CUSTOMERS', 'OPPORTUNITIES'],
  financePermissions: ['TAX_PERCENTAGES', 'INVOICES', 'AP_INVOICES', 'SUPPLIERS', 'CLIENTS'],
  hrPermissions: ['TEAMS', 'EMPLOYEES'],
  inventoryPermissions: ['INVENTORY', 'STOCK_TRANSFERS', 'STOCK_SITES'],
  productionPermissions: ['WASTE', 'PRODUCTION'],
  productsPermissions: ['PRODUCTS'],
  projectsPermissions: ['PROJECTS', 'EPICS', 'FEATURES', 'TASKS'],
  reportingPermissions: ['SALES_REPORTS'],
} as const;

export type PermissionList = keyof typeof PERMISSION_LISTS;
export type Resource = (typeof PERMISSION_LISTS)[PermissionList][number];

/**
 * The tenant module (a switch of `Tenant.scopes`) each resource belongs to: with the module off,
 * every operation whose rule needs a permission on the resource is refused for the tenant
 * (rules.ts), whichever group or route declares it. Declared once per resource, as the groups
 * and operations name their permission by resource. `null`: always on; the users, roles, keys
 * and webhooks that administer the tenant, so switching modules can never lock it out.
 */
export const RESOURCE_MODULES: Record<Resource, TenantScopeName | null> = {
  USERS: null,
  ROLES: null,
  SUBSIDIARIES: 'subsidiaries',
  APIKEYS: null,
  WEBHOOKS: null,
  AUDIT_LOG: null,
  ASSETS: 'assetManagement',
  CALENDAR_EVENTS: 'calendar',
  INBOX: 'communications',
  SENT_MAILS: 'communications',
  NOTIFICATIONS: 'communications',
  TEMPLATES: 'communications',
  CONCEPTS: 'concepts',
  TYPES: 'configurator',
  COVERAGES: 'configurator',
  CONTACT_FORMS: 'crm',
  ACTIVITIES: 'crm',
  BOOKINGS: 'crm',
  LEADS: 'crm',
  CUSTOMERS: 'crm',
  OPPORTUNITIES: 'crm',
  TAX_PERCENTAGES: 'finance',
  INVOICES: 'finance',
  AP_INVOICES: 'finance',
  SUPPLIERS: 'suppliers',
  CLIENTS: 'clients',
  TEAMS: 'hr',
  EMPLOYEES: 'hr',
  INVENTORY: 'inventory',
  STOCK_TRANSFERS: 'inventory',
  STOCK_SITES: 'inventory',
  WASTE: 'production',
  PRODUCTION: 'production',
  PRODUCTS: 'products',
  PROJECTS: 'projects',
  EPICS: 'projects',
  FEATURES: 'projects',
  TASKS: 'tasks',
  SALES_REPORTS: 'reporting',
};

/** The module a permission's resource belongs to (null: always on, or not a resource permission). */
export function moduleOfPermission(name: string): TenantScopeName | null {
  const verb = VERBS.find((v) => name.startsWith(`${v}_`));
  if (!verb) return null;
  return RESOURCE_MODULES[name.slice(verb.length + 1) as Resource] ?? null;
}
export const PERMISSION_LIST_NAMES = Object.keys(PERMISSION_LISTS) as PermissionList[];

export const permissionName = (verb: Verb, resource: Resource) => `${verb}_${resource}`;

/** Every permission name, keyed by the list it belongs to. */
export const PERMISSIONS_BY_LIST: Record<PermissionList, string[]> = Object.fromEntries(
  PERMISSION_LIST_NAMES.map((list) => [
    list,
    PERMISSION_LISTS[list].flatMap((resource) => VERBS.map((verb) => permissionName(verb, resource))),
  ]),
) as Record<PermissionList, string[]>;

export const ALL_PERMISSIONS: string[] = PERMISSION_LIST_NAMES.flatMap((l) => PERMISSIONS_BY_LIST[l]);

/** The role name that holds every permission (assign-super-admin / remove-super-admin). */
export const SUPER_ADMIN = 'SUPER_ADMIN';

/** GraphQL enum of every permission name, so unknown names fail validation with their name. */
export const Permission = Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, p])) as Record<string, string>;
/** What each verb lets a holder do, for the enum's per-value descriptions. */
const VERB_MEANING: Record<Verb, string> = {
  READ: 'Read (GET and the POST dynamic search)',
  CREATE: 'Create',
  UPDATE: 'Change (PUT and PATCH)',
  DELETE: 'Delete',
};

/** `READ_STOCK_TRANSFERS` -> "Read (...) stock transfers; in the role's inventoryPermissions." */
const permissionMeaning = (list: PermissionList, verb: Verb, resource: Resource) =>
  `${VERB_MEANING[verb]} ${resource.toLowerCase().replace(/_/g, ' ')}; held in a role's ${list}.`;

registerEnumType(Permission, {
  name: 'Permission',
  description: 'A permission: <VERB>_<RESOURCE>, VERB one of READ, CREATE, UPDATE, DELETE.',
  valuesConfig: Object.fromEntries(
    PERMISSION_LIST_NAMES.flatMap((list) =>
      PERMISSION_LISTS[list].flatMap((resource) =>
        VERBS.map((verb) => [
          permissionName(verb, resource),
          { description: permissionMeaning(list, verb, resource) },
        ]),
      ),
    ),
  ),
});
