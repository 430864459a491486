import type { EntityManager } from '@mikro-orm/core';
import { queryBatch, uuidLiteral } from './statements';
import { forkFor, type Actor } from './tenancy';

/**
 * The database role request transactions run as: not the owner of any table, unable to bypass
 * row-level security. See src/migrations/Migration20261122000001_rls.ts.
 */
export const APP_ROLE = 'bms_app';

/**
 * Opens a transaction on `em` that runs as the application role with `tenantId` as the row-level
 * security tenant. Both settings are transaction-local: they end with the commit or rollback, so
 * a pooled connection never carries a tenant into its next use. `then`, a statement that needs
 * the settings (authentication's user), goes in the same round trip; its rows are returned.
 * If the settings fail, the transaction is rolled back before the error goes on.
 */
export async function beginTenantTransaction(
  em: EntityManager,
  tenantId: string,
  then?: string,
): Promise<Record<string, unknown>[]> {
  await em.begin();
  try {
    const settings = `select set_config('role', '${APP_ROLE}', true), set_config('app.tenant_id', ${uuidLiteral(tenantId)}, true)`;
    const results = await queryBatch(em, then ? [settings, then] : [settings]);
    return results[1] ?? [];
  } catch (err) {
    await em.rollback().catch(() => undefined);
    throw err;
  }
}

/** Commits (or rolls back) the transaction a request opened, if it is still open. */
export async function endTenantTransaction(em: EntityManager, commit: boolean): Promise<void> {
  if (!em.isInTransaction()) return;
  if (commit) await em.commit();
  else await em.rollback();
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
