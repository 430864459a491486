import type { MikroORM } from '@mikro-orm/core';
import { asWorker } from '../db/worker-transaction';
import { deleteExpired } from '../db/idempotency-key-repository';

/**
 * Deletes idempotency keys past their 24 hours, of every tenant: the `idempotency.cleanup`
 * scheduled job (kernel-jobs.ts). It runs as the `idempotency-cleanup` worker, which the table's
 * clean-up policy admits.
 */
export async function deleteExpiredKeys(orm: MikroORM): Promise<number> {
  return asWorker(orm, 'idempotency-cleanup', deleteExpired);
}
