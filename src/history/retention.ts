import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';
import { actorOf } from '../db/tenancy';
import { affectedRows, asWorker } from '../db/worker-transaction';
import { badRequest } from '../errors';

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
  const [row] = await queryRows(em, 'select retention_days from history_settings where tenant_id = $1', [
    tenantOf(em),
  ]);
  return row ? Number(row.retention_days) : DEFAULT_RETENTION_DAYS;
}

export async function setRetentionDays(em: EntityManager, days: number): Promise<number> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)
    throw badRequest(`retentionDays must be an integer from 1 to ${MAX_RETENTION_DAYS}, got ${days}`);
  await queryRows(
    em,
    `insert into history_settings (tenant_id, retention_days) values ($1, $2)
     on conflict (tenant_id) do update set retention_days = excluded.retention_days`,
    [tenantOf(em), days],
  );
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
  const keep = (table: string) =>
    `make_interval(days => coalesce((select s.retention_days from history_settings s where s.tenant_id = ${table}.tenant_id), ${DEFAULT_RETENTION_DAYS}))`;
  return asWorker(orm, 'history-retention', async (em) => ({
    entries: await affectedRows(
      em,
      `delete from record_history where occurred_at < now() - ${keep('record_history')}`,
    ),
    deletions: await affectedRows(em, `delete from audit_log where created < now() - ${keep('audit_log')}`),
  }));
}
