import type { Context } from '../../context';
import { deletionEntry } from '../../history/deletion-entry';
import { Tenant } from '../../entities/tenant';
import { Permissions, TenantRole } from '../../entities/tenant-role';
import { User } from '../../entities/user';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { inTransaction } from '../../db/transaction';
import {
  PERMISSION_LIST_NAMES,
  PERMISSIONS_BY_LIST,
  SUPER_ADMIN,
  type PermissionList,
} from '../../permissions/catalog';
import { callerOf } from '../../context';
import { callerTenant } from './caller-tenant';
import { checkSuperAdminsRemain, userByEmail } from './user-guards';

/**
 * Tenant roles (spec 4.3). A user's permissions are the union of its roles' lists, read afresh
 * on every request, so each change here applies from the caller's next request on.
 */
interface RoleInput {
  name: string;
  description?: string | null;
  permissions?: Partial<Record<PermissionList, string[] | null>> | null;
}

/** The thirteen lists, each holding only names of its own list (else 400), without repeats. */
export function checkPermissions(input: RoleInput['permissions']): Permissions {
  const out = new Permissions();
  for (const list of PERMISSION_LIST_NAMES) {
    const names = [...new Set(input?.[list] ?? [])];
    const misplaced = names.filter((n) => !PERMISSIONS_BY_LIST[list].includes(n));
    if (misplaced.length > 0) {
      const home = (n: string) => PERMISSION_LIST_NAMES.find((l) => PERMISSIONS_BY_LIST[l].includes(n));
      throw badRequest(
        `permissions.${list}: ${misplaced.map((n) => `${n} belongs in ${home(n) ?? 'no list'}`).join(', ')}`,
      );
    }
    out[list] = names;
  }
  return out;
}

const roleName = (name: string) => {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('name: a role needs a name');
  return trimmed;
};

const isReserved = (name: string) => name.toUpperCase() === SUPER_ADMIN;

async function roleOrFail(ctx: Context, name: string): Promise<TenantRole> {
  const role = await ctx.em.findOne(TenantRole, { name });
  if (!role) throw notFound(`no tenant role ${name}`);
  return role;
}

export async function createRole(ctx: Context, input: RoleInput): Promise<Tenant> {
  const name = roleName(input.name);
  if (isReserved(name)) throw conflict(`${SUPER_ADMIN} is a built-in role`);
  const permissions = checkPermissions(input.permissions);
  if (await ctx.em.count(TenantRole, { name })) throw conflict(`a tenant role ${name} already exists`);
  ctx.em.create(TenantRole, {
    tenantId: callerOf(ctx).tenantId,
    name,
    description: input.description ?? undefined,
    permissions,
  } as never);
  await ctx.em.flush();
  return callerTenant(ctx);
}

export async function updateRole(ctx: Context, input: RoleInput): Promise<Tenant> {
  const name = roleName(input.name);
  if (isReserved(name)) throw conflict(`${SUPER_ADMIN} is a built-in role and cannot be changed`);
  const permissions = checkPermissions(input.permissions);
  const role = await roleOrFail(ctx, name);
  role.permissions = permissions;
  if (input.description !== undefined && input.description !== null) role.description = input.description;
  await ctx.em.flush();
  return callerTenant(ctx);
}

export async function deleteRole(ctx: Context, name: string): Promise<Tenant> {
  if (isReserved(name)) throw conflict(`${SUPER_ADMIN} is a built-in role and cannot be deleted`);
  await inTransaction(ctx.em, async () => {
    const role = await roleOrFail(ctx, name);
    for (const user of await ctx.em.find(User, { roles: { $contains: [name] } })) {
      user.roles = user.roles.filter((r) => r !== name);
    }
    deletionEntry(ctx.em, callerOf(ctx).tenantId, TenantRole.name, role);
    ctx.em.remove(role);
    await ctx.em.flush();
  });
  return callerTenant(ctx);
}

export async function assignSuperAdmin(ctx: Context, email: string): Promise<User> {
  const user = await userByEmail(ctx, email);
  if (!user.roles.includes(SUPER_ADMIN)) {
    user.roles = [...user.roles, SUPER_ADMIN];
    await ctx.em.flush();
  }
  return user;
}

export async function removeSuperAdmin(ctx: Context, email: string): Promise<User> {
  return inTransaction(ctx.em, async () => {
    const user = await userByEmail(ctx, email);
    if (user.roles.includes(SUPER_ADMIN)) {
      await checkSuperAdminsRemain(ctx, [user.id]);
      user.roles = user.roles.filter((r) => r !== SUPER_ADMIN);
      await ctx.em.flush();
    }
    return user;
  });
}

/** SUPER_ADMIN through the generic operations follows the super-admin operations' rules. */
function superAdminRoute(ctx: Context): void {
  if (!callerOf(ctx).superAdmin) throw forbidden(`only a holder of ${SUPER_ADMIN} can grant or remove it`);
}

export async function assignRole(ctx: Context, name: string, email: string): Promise<User> {
  if (name === SUPER_ADMIN) {
    superAdminRoute(ctx);
    return assignSuperAdmin(ctx, email);
  }
  await roleOrFail(ctx, name);
  const user = await userByEmail(ctx, email);
  if (!user.roles.includes(name)) {
    user.roles = [...user.roles, name];
    await ctx.em.flush();
  }
  return user;
}

export async function removeRole(ctx: Context, name: string, email: string): Promise<User> {
  if (name === SUPER_ADMIN) {
    superAdminRoute(ctx);
    return removeSuperAdmin(ctx, email);
  }
  await roleOrFail(ctx, name);
  const user = await userByEmail(ctx, email);
  if (user.roles.includes(name)) {
    user.roles = user.roles.filter((r) => r !== name);
    await ctx.em.flush();
  }
  return user;
}
