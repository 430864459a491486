import type { EntityManager } from '@mikro-orm/core';
import { Tenant } from '../entities/tenant';
import { User, UserStatus } from '../entities/user';
import { TenantRole } from '../entities/tenant-role';
import { forkFor } from '../db/tenancy';
import { SUPER_ADMIN } from '../permissions/catalog';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../family/limits';

/**
 * Creating tenants and users: the CLI, the first-start demo and the createUser mutation share
 * these, so a user made any of those ways is the same.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw badRequest(`"${email}" is not an e-mail address`);
  return e;
}

export interface NewUser {
  tenantId: string;
  email: string;
  firstName?: string;
  lastName?: string;
  roles?: string[];
  hasFullAccess?: boolean;
  /** Who creates it, for the audit fields. */
  actorEmail: string;
  actorId?: string | null;
  /** `<issuer> <sub>` of a user created on first sign-in through an issuer naming users by `sub`. */
  externalSubject?: string;
}

export async function createUser(rootEm: EntityManager, input: NewUser): Promise<User> {
  if (!isUuid(input.tenantId)) throw notFound(`tenant ${input.tenantId} does not exist`);
  const email = normalizeEmail(input.email);
  const em = forkFor(rootEm, {
    tenantId: input.tenantId,
    userId: input.actorId ?? null,
    email: input.actorEmail,
  });
  const tenant = await em.findOne(Tenant, { id: input.tenantId }, { filters: false });
  if (!tenant) throw notFound(`tenant ${input.tenantId} does not exist`);
  if (await em.count(User, { email }))
    throw conflict(`a user with e-mail ${email} already exists in this tenant`);
  const roles = [...new Set(input.roles ?? [])];
  const named = roles.filter((r) => r !== SUPER_ADMIN);
  if (named.length > 0) {
    const known = new Set((await em.find(TenantRole, { name: { $in: named } })).map((r) => r.name));
    const unknown = named.filter((r) => !known.has(r));
    if (unknown.length > 0) throw badRequest(`unknown role(s): ${unknown.join(', ')}`);
  }
  const user = em.create(User, {
    tenantId: input.tenantId,
    email,
    firstName: input.firstName,
    lastName: input.lastName,
    roles,
    hasFullAccess: input.hasFullAccess ?? false,
    status: UserStatus.ACTIVE,
    verified: true,
    externalSubject: input.externalSubject ?? null,
  } as never);
  await em.persistAndFlush(user);
  return user;
}

export interface NewTenant {
  name: string;
  adminEmail: string;
  domain?: string;
}

/** A tenant with its first user, who holds the super-admin role and full access. */
export async function createTenant(
  rootEm: EntityManager,
  input: NewTenant,
): Promise<{ tenant: Tenant; admin: User }> {
  const name = input.name.trim();
  if (!name) throw badRequest('the tenant needs a name');
  const adminEmail = normalizeEmail(input.adminEmail);
  const em = rootEm.fork({ clear: true });
  // Operators name tenants on the command line (--tenant NAME), so a second tenant of the same
  // name would make every later command ambiguous; a rerun of a setup script is refused instead.
  const same = await em.findOne(Tenant, { name }, { filters: false, fields: ['id'] });
  if (same) throw conflict(`a tenant named "${name}" exists already (${same.id}); choose another name`);
  const tenant = em.create(Tenant, {
    name,
    domain: input.domain,
    owner: adminEmail,
    active: true,
    created: new Date(),
    updated: new Date(),
    createdBy: adminEmail,
    updatedBy: adminEmail,
  });
  await em.persistAndFlush(tenant);
  const admin = await createUser(rootEm, {
    tenantId: tenant.id,
    email: adminEmail,
    roles: [SUPER_ADMIN],
    hasFullAccess: true,
    actorEmail: adminEmail,
  });
  return { tenant, admin };
}

export async function findUserByEmail(rootEm: EntityManager, tenantId: string, email: string): Promise<User> {
  if (!isUuid(tenantId)) throw notFound(`tenant ${tenantId} does not exist`);
  const em = forkFor(rootEm, { tenantId, userId: null, email: 'system' });
  const user = await em.findOne(User, { email: normalizeEmail(email) });
  if (!user) throw notFound(`no user ${email} in tenant ${tenantId}`);
  return user;
}
