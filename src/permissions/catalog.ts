import { registerEnumType } from 'type-graphql';

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
