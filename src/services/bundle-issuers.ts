import type { Knex } from '@mikro-orm/postgresql';
import { issuerTrusted } from '../auth/issuer-repository';
import { discoverIssuer } from '../auth/issuers';
import { BundleError } from './bundle-manifest';
import type { TablePlan } from './bundle-insert';
import type { BundleRow } from './bundle-records';

/**
 * A trusted issuer (an identity provider) belongs to one tenant of a deployment: a token's `iss`
 * must say which tenant it signs in to. A bundle imported where its tenant's issuers are already
 * trusted (into the deployment it came from, as a copy) cannot take them as they are; the
 * operator leaves them out or names another issuer for each (docs/operations.md).
 */
export interface IssuerOptions {
  /** Leave out the bundle's trusted issuers, but those `issuerMap` renames. */
  withoutIssuers?: boolean;
  /** The issuer to trust in place of each of these of the bundle's: old URL → new URL. */
  issuerMap?: Record<string, string>;
}

export interface BundledIssuer {
  issuer: string;
  line: number;
}

export const bundledIssuer = (row: BundleRow, line: number): BundledIssuer => ({
  issuer: String(row.issuer),
  line,
});

/** The columns an issuer's new URL changes: its key set is the new provider's. */
const RENAMED = ['issuer', 'jwks_uri', 'key_types'];

/**
 * What the import does with the bundle's issuers, decided before anything is written: each
 * issuer it keeps must be trusted by no tenant of this deployment yet; a renamed one is
 * discovered as registration does (its discovery document and key set fetched and checked).
 */
export async function planIssuers(
  knex: Knex,
  issuers: BundledIssuer[],
  { withoutIssuers = false, issuerMap = {} }: IssuerOptions,
): Promise<TablePlan> {
  const trusted = new Set(issuers.map((i) => i.issuer));
  for (const old of Object.keys(issuerMap))
    if (!trusted.has(old))
      throw new BundleError(
        `--issuer-map names ${old}, an issuer the bundle's tenant does not trust (it trusts ${[...trusted].join(', ') || 'none'})`,
      );
  const kept = issuers.filter((i) => i.issuer in issuerMap || !withoutIssuers);
  const targets = kept.map((i) => issuerMap[i.issuer] ?? i.issuer);
  const twice = targets.find((t, n) => targets.indexOf(t) !== n);
  if (twice) throw new BundleError(`--issuer-map: ${twice} would be trusted twice; name one issuer for each`);
  const taken = await knex.transaction(async (trx) => {
    const found: string[] = [];
    for (const target of targets)
      // Read across tenants by the function authentication uses, as no tenant can read the table.
      if (await issuerTrusted(trx, target)) found.push(target);
    return found;
  });
  for (const [n, issuer] of kept.entries()) {
    const target = targets[n];
    if (!taken.includes(target)) continue;
    if (target !== issuer.issuer)
      throw new BundleError(`--issuer-map: ${target} is already trusted by a tenant of this deployment`);
    throw new BundleError(
      `trusted_issuer: line ${issuer.line} trusts the identity provider ${target}, which a tenant of this deployment already trusts (an issuer belongs to one tenant); nothing was imported: import with --issuer-map ${target}=<another issuer URL> to trust another issuer in its place, or with --without-issuers to leave the bundle's issuers out`,
    );
  }
  const renamed = new Map<string, Record<string, unknown>>();
  for (const [old, target] of Object.entries(issuerMap)) {
    try {
      const found = await discoverIssuer(target);
      renamed.set(old, { issuer: target, jwks_uri: found.jwksUri, key_types: found.keyTypes });
    } catch (err) {
      throw new BundleError(`--issuer-map: ${target} cannot be trusted: ${(err as Error).message}`);
    }
  }
  const keep = new Set(kept.map((i) => i.issuer));
  return {
    assigned: RENAMED,
    skip: (row) => !keep.has(String(row.issuer)),
    assign: (row) =>
      renamed.get(String(row.issuer)) ?? Object.fromEntries(RENAMED.map((c) => [c, row[c] ?? null])),
  };
}
