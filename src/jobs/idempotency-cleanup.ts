import type { MikroORM } from '@mikro-orm/core';
import { inTransaction } from '../db/transaction';
import type { Logger } from '../logger';

/**
 * Deletes idempotency keys past their 24 hours, of every tenant, once at start and then every
 * `intervalMs`. Every process runs it; deleting what another process already deleted costs
 * nothing. The delete runs as the connection's own user with `app.worker` set for its transaction,
 * which the table's clean-up policy admits (the application role never can).
 */
export async function deleteExpiredKeys(orm: MikroORM): Promise<number> {
  const em = orm.em.fork({ clear: true, useContext: false });
  return inTransaction(em, async () => {
    const trx = em.getTransactionContext();
    const connection = em.getConnection();
    await connection.execute(`select set_config('app.worker', 'idempotency-cleanup', true)`, [], 'all', trx);
    const result = await connection.execute<{ affectedRows: number }>(
      'delete from idempotency_key where expires_at <= now()',
      [],
      'run',
      trx,
    );
    return result.affectedRows;
  });
}

export interface Cleanup {
  stop(): Promise<void>;
}

export function startIdempotencyCleanup(orm: MikroORM, logger: Logger, intervalMs = 15 * 60_000): Cleanup {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = deleteExpiredKeys(orm).then(
      (deleted) => {
        if (deleted) logger.info({ deleted }, 'expired idempotency keys deleted');
      },
      (err) => logger.warn({ err }, 'could not delete expired idempotency keys; trying again later'),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
