import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';
import type { Event } from '../entities/event';
import { eventsSql } from '../history/history-events-repository';

/** A record's `events` as the batch read answers them (null: the record has none). */
export interface RecordEventsRow {
  id: string;
  events: Event[] | null;
}

/** The `events` of the tenant's records `ids` of `recordType`, in one statement. */
export function eventsOfRecords(
  em: EntityManager,
  recordType: string,
  tenantId: string,
  ids: readonly string[],
): Promise<RecordEventsRow[]> {
  return queryRows<RecordEventsRow>(
    em,
    `select r.id, (${eventsSql(recordType, '$1::uuid', 'r.id')}) as events from unnest($2::uuid[]) as r(id)`,
    [tenantId, ids],
  );
}

/**
 * All the history entries of the record aliased `alias` as `events`' elements (its latest only
 * are what `events` shows), within its tenant: what searches on `events.type` and the other
 * fields read. Record ids are UUIDs, unique across record types.
 */
export const historyElementsSql = (alias: string): string =>
  `select h.id as "id", h.type as "type", h.occurred_at as "date", h.actor_user_id as "authorId", h.description as "description" from record_history h where h.tenant_id = ${alias}.tenant_id and h.record_id = ${alias}.id`;
