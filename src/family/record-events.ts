import type { Context } from '../context';
import { queryRows } from '../db/orm-bypass/statements';
import { actorOf } from '../db/tenancy';
import type { Event, EventType } from '../entities/event';
import type { HistoryEntry } from '../entities/history-entry';
import { eventsSql } from '../history/events-sql';
import { entriesOfLatestFlush } from '../history/recorder';
import { registerListSource } from './links';
import type { JoinedSql } from './joined';

/** `events` as a group's joined value: read in the record's own statement when asked for. */
export const eventsJoined = (recordType: string): JoinedSql => ({
  fields: ['events'],
  sql: (alias) => eventsSql(recordType, `${alias}.tenant_id`, `${alias}.id`),
  // A record just created has the history its creation wrote, and nothing older.
  created: (record) => (entriesOfLatestFlush(record) ?? []).map(asEvent),
});

/** A history entry as `events` shows it (events-sql.ts's form, from the row as written). */
const asEvent = (entry: HistoryEntry): Event =>
  ({
    id: entry.id,
    // The same names: an event's type is its history entry's.
    type: entry.type as string as EventType,
    date: entry.occurredAt.toISOString(),
    authorId: entry.actorUserId ?? null,
    description: entry.description ?? null,
  }) as Event;

/**
 * `events` of records read without them (a mutation's answer, a linked record), for every record
 * of the request asked at once: one statement per record type.
 */
export function loadEvents(ctx: Context, recordType: string, id: string): Promise<Event[]> {
  return ctx.loaders
    .get<string, Event[]>(`events:${recordType}`, async (ids) => {
      const tenantId = actorOf(ctx.em)?.tenantId;
      if (!tenantId) throw new Error('events read without a tenant');
      const rows = await queryRows(
        ctx.em,
        `select r.id, (${eventsSql(recordType, '$1::uuid', 'r.id')}) as events from unnest($2::uuid[]) as r(id)`,
        [tenantId, [...new Set(ids)]],
      );
      const byId = new Map(rows.map((row) => [row.id as string, (row.events as Event[] | null) ?? []]));
      return ids.map((id) => byId.get(id) ?? []);
    })
    .load(id);
}

// `events` in SQL for searches on `events.type` and the other fields: the record's entries in
// the history table (all of them, not only those `events` shows), within its tenant. Record ids
// are UUIDs, unique across record types.
registerListSource('Event', {
  elements: (a) =>
    `select h.id as "id", h.type as "type", h.occurred_at as "date", h.actor_user_id as "authorId", h.description as "description" from record_history h where h.tenant_id = ${a}.tenant_id and h.record_id = ${a}.id`,
});
