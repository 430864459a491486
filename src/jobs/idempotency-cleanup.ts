import type { MikroORM } from '@mikro-orm/core';
import { affectedRows, asWorker } from '../db/worker-transaction';
import type { Logger } from '../logger';
import { runPeriodically, type Periodic } from './periodic';

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

export type Cleanup = Periodic;

export function startIdempotencyCleanup(orm: MikroORM, logger: Logger, intervalMs = 15 * 60_000): Cleanup {
  return runPeriodically(
    intervalMs,
    logger,
    'could not delete expired idempotency keys; trying again later',
    async () => {
      const deleted = await deleteExpiredKeys(orm);
      if (deleted) logger.info({ deleted }, 'expired idempotency keys deleted');
    },
  );
}
