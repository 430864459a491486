import type { MikroORM } from '@mikro-orm/core';
import { affectedRows, asWorker } from '../db/worker-transaction';
import type { Logger } from '../logger';

/**
 * Deletes idempotency keys past their 24 hours, of every tenant, once at start and then every
 * `intervalMs`. Every process runs it; deleting what another process already deleted costs
 * nothing. It runs as the `idempotency-cleanup` worker, which the table's clean-up policy admits.
 */
export async function deleteExpiredKeys(orm: MikroORM): Promise<number> {
  return asWorker(orm, 'idempotency-cleanup', (em) =>
    affectedRows(em, 'delete from idempotency_key where expires_at <= now()'),
  );
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
