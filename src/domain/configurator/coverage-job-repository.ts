import type { EntityManager } from '@mikro-orm/core';

/**
 * The coverage queue's claim changes its transaction's settings twice (coverage-queue.ts,
 * claimNextJob): these are those statements, run on `em`'s transaction.
 */

/**
 * Marks the transaction as the coverage worker's, for a row-level security policy that lets it
 * see the queue of every tenant (see the README: without one, only a superuser or a BYPASSRLS
 * database user can claim jobs).
 */
export async function actAsCoverageWorker(em: EntityManager): Promise<void> {
  await em
    .getConnection()
    .execute(`select set_config('app.worker', 'coverage', true)`, [], 'all', em.getTransactionContext());
}

/**
 * Switches the rest of the transaction to `role` and the job's tenant, as a request transaction
 * is, and ends its worker mark.
 */
export async function actAsTenant(em: EntityManager, role: string, tenantId: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `select set_config('role', ?, true), set_config('app.tenant_id', ?, true), set_config('app.worker', '', true)`,
      [role, tenantId],
      'all',
      em.getTransactionContext(),
    );
}
