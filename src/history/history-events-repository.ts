// Plain SQL text, importing nothing: the benchmark's baseline server runs the same statement.

/**
 * A record's `events`: its latest EVENTS_CAP history entries, oldest first, read from the
 * history table through its (tenant, record type, record id, seq) index, so a record with ten
 * thousand entries reads as fast as a fresh one. The rest is paged with the record's `history`
 * field or `GET .../find/{id}/history` (docs/history.md).
 */
export const EVENTS_CAP = 100;

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** One entry as `events` shows it, from the history row aliased `h`. */
const EVENT_JSON = `jsonb_build_object('id', h.id, 'type', h.type, 'date', to_char(h.occurred_at at time zone 'UTC', ${ISO}), 'authorId', h.actor_user_id, 'description', h.description)`;

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The latest entries of the record whose tenant and id the two SQL expressions give, as a JSON array. */
export function eventsSql(recordType: string, tenantId: string, id: string): string {
  return `select coalesce(jsonb_agg(${EVENT_JSON} order by h.seq), '[]'::jsonb) from (select h.id, h.type, h.occurred_at, h.actor_user_id, h.description, h.seq from record_history h where h.tenant_id = ${tenantId} and h.record_type = ${quoted(recordType)} and h.record_id = ${id} order by h.seq desc limit ${EVENTS_CAP}) h`;
}
