/**
 * A tenant's trusted OpenID Connect issuers (docs/security.md). Registration fetches the
 * provider's discovery document and key set first, so an issuer whose keys cannot be used is
 * refused with the reason and nothing is stored.
 */
import type { EntityManager } from '@mikro-orm/core';
import { TrustedIssuer } from '../../entities/trusted-issuer';
import { TenantRole } from '../../entities/tenant-role';
import { badRequest, conflict } from '../../errors';
import { discoverIssuer } from '../../auth/issuers';
import { ProviderProblem } from '../../auth/key-sets';
import { isUuid } from '../../limits';
import { SUPER_ADMIN } from '../../permissions/catalog';
import type { AddTrustedIssuerInput } from './api/issuer-inputs';

/** Each takes the tenant's entity manager: a request's, or the CLI's fork for the tenant. */
export function listIssuers(em: EntityManager): Promise<TrustedIssuer[]> {
  return em.find(TrustedIssuer, {}, { orderBy: { created: 'asc', id: 'asc' } });
}

async function checkRole(em: EntityManager, role: string): Promise<void> {
  if (role === SUPER_ADMIN) throw badRequest(`users created on first sign-in may not hold ${SUPER_ADMIN}`);
  if (!(await em.count(TenantRole, { name: role }))) throw badRequest(`the tenant has no role "${role}"`);
}

export async function addIssuer(
  em: EntityManager,
  tenantId: string,
  input: AddTrustedIssuerInput,
): Promise<TrustedIssuer> {
  const role = input.createUsersWithRole;
  if (role !== undefined && role !== null) await checkRole(em, role);
  if (await em.count(TrustedIssuer, { issuer: input.issuer }))
    throw conflict(`the issuer ${input.issuer} is already trusted by this tenant`);
  let discovered;
  try {
    discovered = await discoverIssuer(input.issuer);
  } catch (err) {
    if (err instanceof ProviderProblem) throw badRequest(err.message);
    throw err;
  }
  const issuer = em.create(TrustedIssuer, {
    tenantId,
    issuer: input.issuer,
    jwksUri: discovered.jwksUri,
    audiences: [...new Set(input.audiences)],
    userClaim: input.userClaim ?? 'email',
    allowedDomains: [...new Set((input.allowedDomains ?? []).map((d) => d.toLowerCase()))],
    createUsers: role != null,
    createRole: role ?? null,
    keyTypes: discovered.keyTypes,
  } as never);
  try {
    await em.flush();
  } catch (err) {
    // The issuer is unique across tenants: a token's `iss` names one tenant.
    if ((err as { code?: string }).code === '23505' || /unique/i.test((err as Error).message ?? ''))
      throw conflict(`the issuer ${input.issuer} is already trusted by another tenant of this deployment`);
    throw err;
  }
  return issuer;
}

export async function findIssuer(em: EntityManager, id: string): Promise<TrustedIssuer | null> {
  return isUuid(id) ? em.findOne(TrustedIssuer, { id }) : null;
}

export async function removeIssuer(em: EntityManager, id: string): Promise<boolean> {
  const found = await findIssuer(em, id);
  if (!found) return false;
  em.remove(found);
  await em.flush();
  return true;
}
