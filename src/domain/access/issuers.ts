/**
 * A tenant's trusted OpenID Connect issuers (docs/security.md). Registration fetches the
 * provider's discovery document and key set first, so an issuer whose keys cannot be used is
 * refused with the reason and nothing is stored.
 */
import { callerOf, type Context } from '../../context';
import { TrustedIssuer } from '../../entities/trusted-issuer';
import { TenantRole } from '../../entities/tenant-role';
import { badRequest, conflict } from '../../errors';
import { discoverIssuer } from '../../auth/issuers';
import { ProviderProblem } from '../../auth/key-sets';
import { isUuid } from '../../family/limits';
import { SUPER_ADMIN } from '../../permissions/catalog';
import type { AddTrustedIssuerInput } from '../../resolvers/access/issuer-inputs';

export function listIssuers(ctx: Context): Promise<TrustedIssuer[]> {
  return ctx.em.find(TrustedIssuer, {}, { orderBy: { created: 'asc', id: 'asc' } });
}

async function checkRole(ctx: Context, role: string): Promise<void> {
  if (role === SUPER_ADMIN) throw badRequest(`users created on first sign-in may not hold ${SUPER_ADMIN}`);
  if (!(await ctx.em.count(TenantRole, { name: role }))) throw badRequest(`the tenant has no role "${role}"`);
}

export async function addIssuer(ctx: Context, input: AddTrustedIssuerInput): Promise<TrustedIssuer> {
  const role = input.createUsersWithRole;
  if (role !== undefined && role !== null) await checkRole(ctx, role);
  if (await ctx.em.count(TrustedIssuer, { issuer: input.issuer }))
    throw conflict(`the issuer ${input.issuer} is already trusted by this tenant`);
  let discovered;
  try {
    discovered = await discoverIssuer(input.issuer);
  } catch (err) {
    if (err instanceof ProviderProblem) throw badRequest(err.message);
    throw err;
  }
  const issuer = ctx.em.create(TrustedIssuer, {
    tenantId: callerOf(ctx).tenantId,
    issuer: input.issuer,
    jwksUri: discovered.jwksUri,
    audiences: [...new Set(input.audiences)],
    userClaim: input.userClaim ?? 'email',
    allowedDomains: [...new Set((input.allowedDomains ?? []).map((d) => d.toLowerCase()))],
    createUsers: role != null,
    createRole: role ?? null,
    keyTypes: [...new Set(discovered.keys.keys.map((k) => k.kty))].join(','),
  } as never);
  try {
    await ctx.em.flush();
  } catch (err) {
    // The issuer is unique across tenants: a token's `iss` names one tenant.
    if ((err as { code?: string }).code === '23505' || /unique/i.test((err as Error).message ?? ''))
      throw conflict(`the issuer ${input.issuer} is already trusted by another tenant of this deployment`);
    throw err;
  }
  return issuer;
}

export async function findIssuer(ctx: Context, id: string): Promise<TrustedIssuer | null> {
  return isUuid(id) ? ctx.em.findOne(TrustedIssuer, { id }) : null;
}

export async function removeIssuer(ctx: Context, id: string): Promise<boolean> {
  const found = await findIssuer(ctx, id);
  if (!found) return false;
  ctx.em.remove(found);
  await ctx.em.flush();
  return true;
}
