import type { EntityManager } from '@mikro-orm/core';
import { Tenant } from '../entities/tenant';
import { Permissions, TenantRole, flattenPermissions } from '../entities/tenant-role';
import { User } from '../entities/user';
import { forkFor } from '../db/tenancy';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../limits';
import {
  ALL_PERMISSIONS,
  PERMISSION_LIST_NAMES,
  PERMISSIONS_BY_LIST,
  SUPER_ADMIN,
  type PermissionList,
} from '../permissions/catalog';
import { normalizeEmail } from './provisioning';

/**
 * What an operator looks up across tenants (the CLI): tenants with their admins, a tenant by id
 * or name, a user by e-mail alone, a tenant's roles. These run outside any request, on the
 * database owner's connection, so cross-tenant reads turn the tenant filter off explicitly;
 * anything within one tenant goes through a fork bound to that tenant.
 */
export interface TenantSummary {
  tenantId: string;
  name: string;
  domain: string | null;
  active: boolean;
  admins: { userId: string; email: string; status: string }[];
}

/** Every tenant, oldest first, with the users holding its super-admin role. */
export async function listTenants(rootEm: EntityManager): Promise<TenantSummary[]> {
  const em = rootEm.fork({ clear: true });
  const tenants = await em.find(Tenant, {}, { filters: false, orderBy: { created: 'asc', id: 'asc' } });
  const admins = await em.find(
    User,
    { roles: { $contains: [SUPER_ADMIN] } },
    { filters: false, orderBy: { email: 'asc' }, fields: ['id', 'tenantId', 'email', 'status'] },
  );
  return tenants.map((t) => ({
    tenantId: t.id,
    name: t.name,
    domain: t.domain ?? null,
    active: t.active,
    admins: admins
      .filter((a) => a.tenantId === t.id)
      .map((a) => ({ userId: a.id, email: a.email, status: a.status })),
  }));
}

const LIST_HINT = '(the tenants command lists them)';

/** The tenant a reference names: its id, or else its exact name when no other tenant has it. */
export async function resolveTenant(rootEm: EntityManager, ref: string): Promise<Tenant> {
  const em = rootEm.fork({ clear: true });
  const name = ref.trim();
  const found = await em.find(Tenant, isUuid(name) ? { id: name } : { name }, {
    filters: false,
    orderBy: { created: 'asc' },
  });
  if (found.length === 0) throw notFound(`no tenant "${ref}" ${LIST_HINT}`);
  if (found.length > 1)
    throw badRequest(
      `${found.length} tenants are named "${ref}": pass one of their ids (${found.map((t) => t.id).join(', ')})`,
    );
  return found[0];
}

/** The user with this e-mail: in the given tenant, or in whichever single tenant has one. */
export async function userByEmail(rootEm: EntityManager, email: string, tenantId?: string): Promise<User> {
  const em = rootEm.fork({ clear: true });
  const address = normalizeEmail(email);
  const users = await em.find(User, tenantId ? { email: address, tenantId } : { email: address }, {
    filters: false,
    orderBy: { tenantId: 'asc' },
  });
  if (users.length === 0)
    throw notFound(
      tenantId ? `no user ${address} in tenant ${tenantId}` : `no user ${address} in any tenant`,
    );
  if (users.length > 1)
    throw badRequest(
      `${address} is a user of ${users.length} tenants (${users.map((u) => u.tenantId).join(', ')}): pass --tenant`,
    );
  return users[0];
}

export interface RoleSummary {
  name: string;
  description: string | null;
  builtIn: boolean;
  permissions: string[];
}

const BUILT_IN: RoleSummary = {
  name: SUPER_ADMIN,
  description: 'Built in: every permission, and the only role that can grant SUPER_ADMIN',
  builtIn: true,
  permissions: ALL_PERMISSIONS,
};

const systemActor = (tenantId: string) => ({ tenantId, userId: null, email: 'cli' });

/** The role names users of the tenant can be given: the built-in one, then the tenant's own. */
export async function listRoles(rootEm: EntityManager, tenantId: string): Promise<RoleSummary[]> {
  const em = forkFor(rootEm, systemActor(tenantId));
  const roles = await em.find(TenantRole, {}, { orderBy: { name: 'asc' } });
  return [
    BUILT_IN,
    ...roles.map((r) => ({
      name: r.name,
      description: r.description ?? null,
      builtIn: false,
      permissions: flattenPermissions(r.permissions),
    })),
  ];
}

/** A tenant role from a flat list of permission names, each filed under the list it belongs to. */
export async function createRoleFor(
  rootEm: EntityManager,
  input: { tenantId: string; name: string; permissions: string[]; description?: string },
): Promise<RoleSummary> {
  const name = input.name.trim();
  if (!name) throw badRequest('a role needs a name');
  if (name.toUpperCase() === SUPER_ADMIN) throw conflict(`${SUPER_ADMIN} is a built-in role`);
  const permissions = new Permissions();
  const homeless: string[] = [];
  for (const p of new Set(input.permissions)) {
    const list = PERMISSION_LIST_NAMES.find((l: PermissionList) => PERMISSIONS_BY_LIST[l].includes(p));
    if (list) permissions[list].push(p);
    else homeless.push(p);
  }
  if (homeless.length > 0)
    throw badRequest(`unknown permission(s): ${homeless.join(', ')} (names look like READ_CONCEPTS)`);
  const em = forkFor(rootEm, systemActor(input.tenantId));
  if (await em.count(TenantRole, { name })) throw conflict(`a tenant role ${name} already exists`);
  const role = em.create(TenantRole, {
    tenantId: input.tenantId,
    name,
    description: input.description,
    permissions,
  } as never);
  await em.flush();
  return {
    name: role.name,
    description: role.description ?? null,
    builtIn: false,
    permissions: flattenPermissions(permissions),
  };
}
