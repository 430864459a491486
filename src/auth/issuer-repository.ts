import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';

/**
 * Reads of `trusted_issuer` across tenants, through `bms_trusted_issuer(iss)`: no tenant can read
 * the table, and a token's issuer must be found before its tenant is known (the migration says
 * why a function). Not the entity's reads, which are a tenant's own (src/entities/trusted-issuer.ts).
 */

/** The columns of an issuer that authentication reads (the function returns the whole row). */
export interface TrustedIssuerRow {
  tenant_id: string;
  id: string;
  issuer: string;
  jwks_uri: string;
  audiences: string[];
  user_claim: string;
  allowed_domains: string[];
  create_users: boolean;
  create_role: string | null;
}

/** The issuer trusted under this URL: none, or one (an issuer belongs to one tenant). */
export function trustedIssuerRows(em: EntityManager, issuer: string): Promise<TrustedIssuerRow[]> {
  return em.getConnection().execute<TrustedIssuerRow[]>('select * from bms_trusted_issuer(?)', [issuer]);
}

/** Whether a tenant of the deployment trusts this issuer, asked in a knex transaction (an import's). */
export async function issuerTrusted(trx: Knex.Transaction, issuer: string): Promise<boolean> {
  const result = (await trx.raw('select 1 from bms_trusted_issuer(?) limit 1', [issuer])) as {
    rows: unknown[];
  };
  return result.rows.length > 0;
}
