/**
 * The SQL of `record_history`'s indexes, which MikroORM's index options cannot say (a column in
 * descending order): the entity (history-entry.ts) declares them with these expressions, as the
 * migration made them, so the schema comparison finds them equal.
 */

/** A record's entries, newest first: its `events` and `history` (history/history-events-repository.ts). */
export const RECORD_HISTORY_RECORD_INDEX =
  'create index "record_history_record_idx" on "record_history" ("tenant_id", "record_type", "record_id", "seq" desc)';

/** The tenant's entries, newest first: the audit log's pages (history/history-repository.ts). */
export const RECORD_HISTORY_SEQ_INDEX =
  'create index "record_history_seq_idx" on "record_history" ("tenant_id", "seq" desc)';
