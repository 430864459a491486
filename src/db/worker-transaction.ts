import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { queryRows } from './orm-bypass/statements';
import { inTransaction } from './transaction';

/**
 * Runs `work` in a transaction of the connection's own user with `app.worker` set to `worker`
 * for it: the background jobs' way across tenants, which a table's worker policy admits for the
 * named worker (the application role never can).
 */
export async function asWorker<R>(
  orm: Pick<MikroORM, 'em'>,
  worker: string,
  work: (em: EntityManager) => Promise<R>,
): Promise<R> {
  const em = orm.em.fork({ clear: true, useContext: false });
  return inTransaction(em, async () => {
    await queryRows(em, `select set_config('app.worker', $1, true)`, [worker]);
    return work(em);
  });
}

/**
 * Makes `tenantId` the tenant of a worker's transaction from here on, so what the worker then
 * writes as that tenant (an event of its records) passes the tenant's row-level policy.
 */
export async function actAsTenant(em: EntityManager, tenantId: string): Promise<void> {
  await queryRows(em, `select set_config('app.tenant_id', $1, true)`, [tenantId]);
}

/** Runs a statement (a delete, an update) in `em`'s transaction; answers how many rows it touched. */
export async function affectedRows(em: EntityManager, sql: string): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(sql, [], 'run', em.getTransactionContext());
  return result.affectedRows;
}
