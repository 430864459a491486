import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { queryRows } from './orm-bypass/statements';
import { APP_ROLE } from './tenant-transaction';
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

/**
 * Turns the rest of a worker's transaction into a request's of `tenantId`: the application role,
 * the tenant and no worker, so what it reads and writes from here on is under the tenant's
 * row-level policies as a request's is.
 */
export async function actAsApplicationTenant(em: EntityManager, tenantId: string): Promise<void> {
  await queryRows(
    em,
    `select set_config('role', $1, true), set_config('app.tenant_id', $2, true), set_config('app.worker', '', true)`,
    [APP_ROLE, tenantId],
  );
}

/** Runs a statement (a delete, an update) in `em`'s transaction; answers how many rows it touched. */
export async function affectedRows(em: EntityManager, sql: string): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(sql, [], 'run', em.getTransactionContext());
  return result.affectedRows;
}
