import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';
import { affectedRows } from '../db/worker-transaction';
import type { FieldChange } from '../entities/history-entry';

/**
 * The statements of the history table (`record_history`) and of what its retention deletes
 * (`audit_log`'s deleted records, by `history_settings`): pages of entries by a filter, and the
 * retention's bulk deletes. A record's latest entries are history-events-repository.ts's.
 */

/** A row of `record_history` as the reading statements select it. */
export interface HistoryEntryRow {
  id: string;
  record_type: string;
  record_id: string;
  type: string;
  occurred_at: Date;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  actor_email: string | null;
  request_id: string | null;
  description: string | null;
  changes: Record<string, FieldChange> | null;
}

const COLUMNS = `id, record_type, record_id, type, occurred_at, actor_user_id, actor_api_key_id, actor_email, request_id, description, changes`;

/** A condition on `record_history` (`$n` placeholders) with its values, `tenant_id = $1` first. */
export interface HistoryWhere {
  where: string;
  params: unknown[];
}

/** One page of the entries `where` admits, newest first, and how many it admits in all. */
export async function historyEntryPage(
  em: EntityManager,
  { where, params }: HistoryWhere,
  page: number,
  size: number,
): Promise<{ rows: HistoryEntryRow[]; total: number }> {
  const rows = await queryRows<HistoryEntryRow>(
    em,
    `select ${COLUMNS} from record_history where ${where} order by seq desc limit ${size} offset ${page * size}`,
    params,
  );
  const [count] = await queryRows<{ total: number }>(
    em,
    `select count(*)::int as total from record_history where ${where}`,
    params,
  );
  return { rows, total: Number(count.total) };
}

/** The entries `where` admits, newest first, up to `limit`. */
export function historyEntries(em: EntityManager, { where, params }: HistoryWhere, limit: number) {
  return queryRows<HistoryEntryRow>(
    em,
    `select ${COLUMNS} from record_history where ${where} order by seq desc limit ${limit}`,
    params,
  );
}

/**
 * Deletes, in every tenant, the history entries and the audit log's deleted records older than
 * the tenant's retention period (`defaultDays` where the tenant set none); `em` is the retention
 * worker's, which the tables' retention policies admit.
 */
export async function deleteExpiredHistory(
  em: EntityManager,
  defaultDays: number,
): Promise<{ entries: number; deletions: number }> {
  const keep = (table: string) =>
    `make_interval(days => coalesce((select s.retention_days from history_settings s where s.tenant_id = ${table}.tenant_id), ${defaultDays}))`;
  return {
    entries: await affectedRows(
      em,
      `delete from record_history where occurred_at < now() - ${keep('record_history')}`,
    ),
    deletions: await affectedRows(em, `delete from audit_log where created < now() - ${keep('audit_log')}`),
  };
}
