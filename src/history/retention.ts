import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { actorOf } from '../db/tenancy';
import { asWorker } from '../db/worker-transaction';
import { HistorySettings } from '../entities/history-settings';
import { badRequest } from '../errors';
import { deleteExpiredHistory } from './history-repository';

/**
 * How long a tenant's history (and the deleted records the audit log keeps for restoring) is
 * kept: ten years unless the tenant sets otherwise, from 1 to 36500 days. Older entries are
 * deleted by the retention job below; a record deleted longer ago than this cannot be restored.
 */
export const DEFAULT_RETENTION_DAYS = 3650;
export const MAX_RETENTION_DAYS = 36500;

function tenantOf(em: EntityManager): string {
  const tenantId = actorOf(em)?.tenantId;
  if (!tenantId) throw new Error('history settings read without a tenant');
  return tenantId;
}

export async function retentionDays(em: EntityManager): Promise<number> {
  // Read, not managed: a request that only reads then commits without a flush (tenant-transaction.ts).
  const settings = await em.findOne(
    HistorySettings,
    { tenantId: tenantOf(em) },
    { disableIdentityMap: true },
  );
  return settings?.retentionDays ?? DEFAULT_RETENTION_DAYS;
}

export async function setRetentionDays(em: EntityManager, days: number): Promise<number> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)
    throw badRequest(`retentionDays must be an integer from 1 to ${MAX_RETENTION_DAYS}, got ${days}`);
  await em.upsert(HistorySettings, { tenantId: tenantOf(em), retentionDays: days });
  return days;
}

/** The start of the tenant's retention period: entries older than this are gone or about to go. */
export async function retainedSince(em: EntityManager, now = new Date()): Promise<Date> {
  return new Date(now.getTime() - (await retentionDays(em)) * 86_400_000);
}

/**
 * Deletes, in every tenant, the history entries and the audit log's deleted records older than
 * the tenant's retention period, as the `history-retention` worker, which the tables' retention
 * policies admit: the `history.retention` scheduled job (src/jobs/kernel-jobs.ts).
 */
export async function purgeExpiredHistory(orm: MikroORM): Promise<{ entries: number; deletions: number }> {
  return asWorker(orm, 'history-retention', (em) => deleteExpiredHistory(em, DEFAULT_RETENTION_DAYS));
}
