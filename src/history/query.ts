import type { EntityManager } from '@mikro-orm/core';
import { badRequest } from '../errors';
import { actorOf } from '../db/tenancy';
import { entityClassesOf } from '../db/entity-classes';
import { Audited } from '../entities/tenant-scoped';
import { checkPaging, isUuid } from '../limits';
import { toPage, type Page } from '../schema/page';
import { HISTORY_ALSO } from './recorder';
import {
  historyEntries,
  historyEntryPage,
  type HistoryEntryRow,
  type HistoryWhere,
} from './history-repository';

const historyTypes = new WeakMap<readonly Function[], readonly string[]>();

/** The record types the ORM of `em` knows that keep a history: every record with `events`, and HISTORY_ALSO. */
function historyTypesOf(em: EntityManager): readonly string[] {
  const entities = entityClassesOf(em);
  let found = historyTypes.get(entities);
  if (!found) {
    found = entities
      .filter((e) => e.prototype instanceof Audited || HISTORY_ALSO.has(e.name))
      .map((e) => e.name)
      .sort();
    historyTypes.set(entities, found);
  }
  return found;
}

/** One history entry as the reading operations answer it. */
export interface HistoryRow {
  id: string;
  recordType: string;
  recordId: string;
  type: string;
  occurredAt: Date;
  userId: string | null;
  apiKeyId: string | null;
  actor: string | null;
  requestId: string | null;
  description: string | null;
  changes: { field: string; old: unknown; new: unknown }[];
}

/** What the audit log is filtered by; every part is optional. */
export interface AuditFilter {
  recordType?: string | null;
  recordId?: string | null;
  actorId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** The filter checked: an unknown record type, a malformed id or a range ending before it starts is a 400. */
export function checkFilter(em: EntityManager, filter: AuditFilter): AuditFilter {
  const types = historyTypesOf(em);
  if (filter.recordType != null && !types.includes(filter.recordType))
    throw badRequest(
      `recordType ${filter.recordType} is not a record type with a history; one of ${types.join(', ')}`,
    );
  if (filter.recordId != null && !isUuid(filter.recordId))
    throw badRequest(`recordId ${filter.recordId} is not a UUID`);
  if (filter.actorId != null && !isUuid(filter.actorId))
    throw badRequest(`actorId ${filter.actorId} is not a UUID`);
  for (const name of ['from', 'to'] as const) {
    const d = filter[name];
    if (d != null && Number.isNaN(d.getTime())) throw badRequest(`${name} is not a date`);
  }
  if (filter.from && filter.to && filter.to.getTime() < filter.from.getTime())
    throw badRequest(`to (${filter.to.toISOString()}) is before from (${filter.from.toISOString()})`);
  return filter;
}

function rowOf(r: HistoryEntryRow): HistoryRow {
  return {
    id: r.id,
    recordType: r.record_type,
    recordId: r.record_id,
    type: r.type,
    occurredAt: new Date(r.occurred_at),
    userId: r.actor_user_id ?? null,
    apiKeyId: r.actor_api_key_id ?? null,
    actor: r.actor_email ?? null,
    requestId: r.request_id ?? null,
    description: r.description ?? null,
    changes: Object.entries(r.changes ?? {}).map(([field, c]) => ({ field, old: c.old, new: c.new })),
  };
}

function tenantOf(em: EntityManager): string {
  const tenantId = actorOf(em)?.tenantId;
  if (!tenantId) throw new Error('history read without a tenant');
  return tenantId;
}

/**
 * A page of the tenant's history, newest first, matching `filter`. Each statement reads the
 * request tenant's rows only (and row-level security holds underneath); the indexes
 * (tenant, record type, record id, seq) and (tenant, seq) serve the commonest filters.
 */
export async function historyPage(
  em: EntityManager,
  filter: AuditFilter,
  pageNumber?: number | null,
  pageSize?: number | null,
): Promise<Page<HistoryRow>> {
  const { page, size } = checkPaging(pageNumber, pageSize, ['pageNumber', 'pageSize']);
  const { rows, total } = await historyEntryPage(
    em,
    whereOf(tenantOf(em), checkFilter(em, filter)),
    page,
    size,
  );
  return toPage(rows.map(rowOf), total, page, size, true);
}

/** Every entry matching `filter`, newest first, up to `limit` (the CSV export). */
export async function historyRows(
  em: EntityManager,
  filter: AuditFilter,
  limit: number,
): Promise<HistoryRow[]> {
  const rows = await historyEntries(em, whereOf(tenantOf(em), checkFilter(em, filter)), limit);
  return rows.map(rowOf);
}

function whereOf(tenantId: string, filter: AuditFilter): HistoryWhere {
  const params: unknown[] = [tenantId];
  const parts = ['tenant_id = $1'];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(`$${params.length}`));
  };
  if (filter.recordType != null) add((n) => `record_type = ${n}`, filter.recordType);
  if (filter.recordId != null) add((n) => `record_id = ${n}::uuid`, filter.recordId);
  if (filter.actorId != null)
    add((n) => `(actor_user_id = ${n}::uuid or actor_api_key_id = ${n}::uuid)`, filter.actorId);
  if (filter.from != null) add((n) => `occurred_at >= ${n}::timestamptz`, filter.from.toISOString());
  if (filter.to != null) add((n) => `occurred_at <= ${n}::timestamptz`, filter.to.toISOString());
  return { where: parts.join(' and '), params };
}
