import type { EntityManager } from '@mikro-orm/core';
import { BEGIN, ConnectionTransaction } from './orm-bypass/connection-transaction';

/**
 * Runs `work` in a transaction on `em` itself (not a fork), so the tenant and actor `em` carries
 * hold: flushed and committed when it returns, rolled back when it throws. Within a transaction
 * already open, `work` simply joins it: em.transactional would open a nested transaction there,
 * a savepoint, which a request's transaction does not offer (ConnectionTransaction).
 *
 * The transaction is a `ConnectionTransaction`, as a request's is, so jobs, workers and tools run
 * their statements, flushes and deferred writes the way requests do: the service has one
 * transaction implementation, not a knex transaction beside it. BEGIN goes out with the first
 * statement; MikroORM ends the transaction through it (`em.commit()`, `em.rollback()`).
 */
export async function inTransaction<R>(em: EntityManager, work: () => Promise<R>): Promise<R> {
  if (em.isInTransaction()) return work();
  em.setTransactionContext(await ConnectionTransaction.open(em, [BEGIN]));
  try {
    const result = await work();
    await em.commit();
    return result;
  } catch (err) {
    // A failed flush or COMMIT leaves MikroORM's context in place; rolling it back ends it (the
    // rollback of a COMMIT that failed fails too, and the COMMIT's error is the one to report).
    if (em.isInTransaction()) await em.rollback().catch(() => undefined);
    throw err;
  }
}
