import type { EntityManager } from '@mikro-orm/core';
import { Tenant } from '../entities/tenant';
import { User } from '../entities/user';
import { forkFor } from '../db/tenancy';
import { SUPER_ADMIN } from '../permissions/catalog';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../limits';
import { createUser, normalizeEmail } from '../auth/user-creation';

/**
 * Creating tenants and users: the CLI, the first-start demo and the createUser mutation share
 * these, so a user made any of those ways is the same (a user's creation is auth/user-creation.ts).
 */
export { createUser, normalizeEmail, type NewUser } from '../auth/user-creation';

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
