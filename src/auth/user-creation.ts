import type { EntityManager } from '@mikro-orm/core';
import { Tenant } from '../entities/tenant';
import { User, UserStatus } from '../entities/user';
import { TenantRole } from '../entities/tenant-role';
import { forkFor } from '../db/tenancy';
import { SUPER_ADMIN } from '../permissions/catalog';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../limits';

/**
 * Creating a user: the CLI, the first-start demo, the createUser mutation and a trusted issuer's
 * first sign-in share it, so a user made any of those ways is the same. It sits with
 * authentication, below the services, because sign-in creates users too.
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
