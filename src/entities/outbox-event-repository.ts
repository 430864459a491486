/**
 * The SQL of `outbox_event`'s partial index, which MikroORM's index options cannot say (a
 * `where`): the entity (outbox-event.ts) declares it with this expression, as the migration made
 * it, so the schema comparison finds them equal.
 */

/** The undispatched events in the order the event worker fans them out (events/outbox-repository.ts). */
export const OUTBOX_EVENT_UNDISPATCHED_INDEX =
  'create index "outbox_event_undispatched_idx" on "outbox_event" ("occurred_at", "id") where "dispatched_at" is null';
