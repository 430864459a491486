import type { Context } from '../context';
import { actorOf } from '../db/tenancy';
import type { Event, EventType } from '../entities/event';
import type { HistoryEntry } from '../entities/history-entry';
import { eventsSql } from '../history/history-events-repository';
import { entriesOfLatestFlush } from '../history/recorder';
import { registerListSource } from './links';
import { eventsOfRecords, historyElementsSql } from './record-history-repository';
import type { JoinedSql } from './joined';

/** `events` as a group's joined value: read in the record's own statement when asked for. */
export const eventsJoined = (recordType: string): JoinedSql => ({
  fields: ['events'],
  sql: (alias) => eventsSql(recordType, `${alias}.tenant_id`, `${alias}.id`),
  // A record just created has the history its creation wrote, and nothing older.
  created: (record) => (entriesOfLatestFlush(record) ?? []).map(asEvent),
});

/** A history entry as `events` shows it (history-events-repository.ts's form, from the row as written). */
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
      const rows = await eventsOfRecords(ctx.em, recordType, tenantId, [...new Set(ids)]);
      const byId = new Map(rows.map((row) => [row.id, row.events ?? []]));
      return ids.map((id) => byId.get(id) ?? []);
    })
    .load(id);
}

// `events` in SQL for searches on `events.type` and the other fields: the record's entries in
// the history table (all of them, not only those `events` shows), within its tenant.
registerListSource('Event', { elements: historyElementsSql });
