import type { EntityManager } from '@mikro-orm/core';

/**
 * Runs `work` in a transaction on `em` itself (not a fork), so the tenant and actor `em` carries
 * hold: flushed and committed when it returns, rolled back when it throws. Within a transaction
 * already open, `work` simply joins it: em.transactional would open a nested transaction there,
 * a savepoint, which a request's transaction does not offer (ConnectionTransaction).
 */
export async function inTransaction<R>(em: EntityManager, work: () => Promise<R>): Promise<R> {
  if (em.isInTransaction()) return work();
  await em.begin();
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
