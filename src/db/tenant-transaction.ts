import type { EntityManager } from '@mikro-orm/core';
import { ConnectionTransaction } from './connection-transaction';
import { uuidLiteral } from './statements';
import { forkFor, type Actor } from './tenancy';

/**
 * The database role request transactions run as: not the owner of any table, unable to bypass
 * row-level security. See src/migrations/Migration20261122000001_rls.ts.
 */
export const APP_ROLE = 'bms_app';

/**
 * Opens a transaction on `em` that runs as the application role with `tenantId` as the row-level
 * security tenant. Both settings are transaction-local: they end with the commit or rollback, so
 * a pooled connection never carries a tenant into its next use. BEGIN, the settings and `then`,
 * a statement that needs them (authentication's user), go in one round trip; `then`'s rows are
 * returned. If any fails, the transaction is rolled back before the error goes on.
 */
export async function beginTenantTransaction(
  em: EntityManager,
  tenantId: string,
  then?: string,
): Promise<Record<string, unknown>[]> {
  return (await begin(em, settingsStatement(tenantId, false), then)).rows;
}

/**
 * The same, and the settings' round trip also reads the tenant's caller version (see
 * auth/caller-cache.ts): null when the tenant has none. It is read before the role changes,
 * as the connection's own user: the application role may read only its tenant's row, and the
 * tenant's id is explicit.
 */
export async function beginCallerTransaction(
  em: EntityManager,
  tenantId: string,
  then?: string,
): Promise<{ callerVersion: string | null; rows: Record<string, unknown>[] }> {
  const { settings, rows } = await begin(em, settingsStatement(tenantId, true), then);
  const version = settings[0]?.caller_version;
  return { callerVersion: version === null || version === undefined ? null : String(version), rows };
}

function settingsStatement(tenantId: string, withCallerVersion: boolean): string {
  const tenant = uuidLiteral(tenantId);
  const version = withCallerVersion
    ? `(select v.version from caller_version v where v.id = ${tenant}) as caller_version, `
    : '';
  return `select ${version}set_config('role', '${APP_ROLE}', true), set_config('app.tenant_id', ${tenant}, true)`;
}

async function begin(
  em: EntityManager,
  settings: string,
  then: string | undefined,
): Promise<{ settings: Record<string, unknown>[]; rows: Record<string, unknown>[] }> {
  const { transaction, results } = await ConnectionTransaction.begin(
    em,
    then ? [settings, then] : [settings],
  );
  em.setTransactionContext(transaction);
  return { settings: results[0] ?? [], rows: results[1] ?? [] };
}

/** Commits (or rolls back) the transaction a request opened, if it is still open. */
export async function endTenantTransaction(em: EntityManager, commit: boolean): Promise<void> {
  if (!em.isInTransaction()) return;
  if (!commit) return em.rollback();
  try {
    await em.commit();
  } catch (err) {
    // A failed flush or COMMIT leaves MikroORM's context in place; what remains is rolled back
    // (nothing, if the COMMIT itself failed) so the request holds no transaction after this.
    if (em.isInTransaction()) await em.rollback().catch(() => undefined);
    throw err;
  }
}

/** Runs `work` for `actor` in a tenant transaction of its own: for work outside a request (jobs, tools). */
export async function withTenant<R>(
  rootEm: EntityManager,
  actor: Actor,
  work: (em: EntityManager) => Promise<R>,
): Promise<R> {
  const em = forkFor(rootEm, actor);
  await beginTenantTransaction(em, actor.tenantId);
  try {
    const result = await work(em);
    await em.commit();
    return result;
  } catch (err) {
    await em.rollback();
    throw err;
  }
}
