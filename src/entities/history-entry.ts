import { BigIntType, Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { indexOn } from './index-repository';

/** What happened to a record, as its history and the audit log name it. */
export enum HistoryType {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  STATUS_CHANGE = 'STATUS_CHANGE',
  DELETE = 'DELETE',
  RESTORE = 'RESTORE',
}

/** One field's value before and after a change (null where there was none). */
export interface FieldChange {
  old: unknown;
  new: unknown;
}

/**
 * One entry of a record's history, in a table of its own rather than inside the record's row, so
 * that neither writing nor reading a record costs more as its history grows. Written by the flush
 * that makes the change (history/recorder.ts), so an entry exists exactly when its change committed.
 * `seq` orders the entries (several made by one flush share a millisecond): microseconds since
 * the epoch, made strictly increasing within a process.
 */
@Entity({ tableName: 'record_history' })
// A record's entries, newest first (its `events` and `history`), and the tenant's (the audit log).
@Index(
  indexOn('record_history', 'record_history_record_idx', [
    'tenant_id',
    'record_type',
    'record_id',
    'seq desc',
  ]),
)
@Index(indexOn('record_history', 'record_history_seq_idx', ['tenant_id', 'seq desc']))
export class HistoryEntry {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** The entity's name: `Feature`, `Invoice`, `WebhookEndpoint`... */
  @Property({ type: 'text' })
  recordType!: string;

  @Property({ type: 'uuid' })
  recordId!: string;

  @Enum({ items: () => HistoryType })
  type!: HistoryType;

  @Property({ type: new BigIntType('number') })
  seq!: number;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  /** The user who made the change, or the creator of the API key that made it; null for the service's own jobs. */
  @Property({ type: 'uuid', nullable: true })
  actorUserId?: string | null;

  /** The API key that made the change, when it was made with one. */
  @Property({ type: 'uuid', nullable: true })
  actorApiKeyId?: string | null;

  /** The name the change was written as: the user's e-mail, `api-key:<name>`, or the job's name. */
  @Property({ type: 'text', nullable: true })
  actorEmail?: string | null;

  /** The X-Request-Id of the request that made the change (null for jobs). */
  @Property({ type: 'text', nullable: true })
  requestId?: string | null;

  /** For an UPDATE the changed fields, for a STATUS_CHANGE `OLD -> NEW` (what `events` show). */
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  /** The changed fields' values before and after, secrets left out (history/diff.ts). */
  @Property({ type: 'json', nullable: true })
  changes?: Record<string, FieldChange> | null;
}
