import { randomUUID } from 'node:crypto';
import {
  ReferenceKind,
  wrap,
  type EntityManager,
  type EntityMetadata,
  type EntityProperty,
  type Platform,
} from '@mikro-orm/core';
import { AuditLog } from '../entities/audit-log';
import { HistoryEntry, HistoryType, type FieldChange } from '../entities/history-entry';
import { Audited, BOOKKEEPING } from '../entities/tenant-scoped';
import type { Actor } from '../db/actor';
import { actorOf, takeRestore } from '../db/tenancy';
import { deferInsert, newRow } from '../db/orm-bypass/deferred-writes';
import { ChangeSubscriber, type Changes } from '../db/record-changes';
import { isSecretField } from './secrets';

/**
 * The one place that turns a change into history entries: which fields changed, their values
 * before and after (secrets left out, history/secrets.ts), who made the change, in which request,
 * and when. Runs inside the flush that writes the change (db/tenancy.ts calls it), so an entry
 * commits or rolls back with its change: requests, GraphQL and jobs alike.
 */

/** Records without `events` that keep a history too (readable through the audit log). */
export const HISTORY_ALSO: ReadonlySet<string> = new Set([
  'WebhookEndpoint',
  'ApiKey',
  'TenantRole',
  'TrustedIssuer',
  'PushToken',
  'NotificationSettings',
  'StockBatch',
]);

export const keepsHistory = (entity: unknown, entityName: string): boolean =>
  entity instanceof Audited || HISTORY_ALSO.has(entityName);

let lastSeq = 0;

/** Microseconds since the epoch, strictly increasing within the process: the entries' order. */
export function nextSeq(now: Date = new Date()): number {
  lastSeq = Math.max(now.getTime() * 1000, lastSeq + 1);
  return lastSeq;
}

/** A value as the history keeps it: plain JSON (dates as ISO text), nothing bound to a class. */
function plain(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Buffer.isBuffer(value)) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.parse(JSON.stringify(value)) as unknown;
  return value;
}

/** A snapshot's value (the database's form of custom types: JSON and arrays as text) as the record holds it. */
function fromSnapshot(prop: EntityProperty, value: unknown, platform: Platform): unknown {
  if (value === null || value === undefined) return null;
  if (prop.customType && typeof value === 'string') {
    try {
      return prop.customType.convertToJSValue(value, platform);
    } catch {
      return value;
    }
  }
  return value;
}

/** The stored, non-secret fields of a record that a history entry may show. */
function shownProps(meta: EntityMetadata): EntityProperty[] {
  return meta.props.filter(
    (p) =>
      p.kind === ReferenceKind.SCALAR &&
      p.persist !== false &&
      !BOOKKEEPING.has(p.name) &&
      !isSecretField(meta.className, p.name),
  );
}

const sameValue = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a) === JSON.stringify(b) ||
  (a !== null && b !== null && typeof a !== 'object' && Number(a) === Number(b) && !Number.isNaN(Number(a)));

/**
 * The changes between two states of a record, field by field: `before` undefined for a creation
 * or restore, `after` undefined for a deletion. Only the fields named in `fields` (all shown
 * fields when omitted) count; secrets and bookkeeping never do.
 */
export function fieldChanges(
  meta: EntityMetadata,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  platform: Platform,
  fields?: readonly string[],
): Record<string, FieldChange> {
  const wanted = fields ? new Set(fields) : undefined;
  const changes: Record<string, FieldChange> = {};
  for (const prop of shownProps(meta)) {
    if (wanted && !wanted.has(prop.name)) continue;
    const old = before ? plain(fromSnapshot(prop, before[prop.name], platform)) : null;
    const now = after ? plain(after[prop.name]) : null;
    if (sameValue(old, now)) continue;
    changes[prop.name] = { old, new: now };
  }
  return changes;
}

/** A new entry of `actor`'s change to the record, filled into `entry` (a flush's: `newRow`). */
export function historyEntry(
  actor: Actor,
  fields: {
    recordType: string;
    recordId: string;
    type: HistoryType;
    description: string | null;
    changes: Record<string, FieldChange> | null;
    at?: Date;
  },
  entry: HistoryEntry = new HistoryEntry(),
): HistoryEntry {
  const at = fields.at ?? new Date();
  entry.tenantId = actor.tenantId;
  entry.id = randomUUID();
  entry.recordType = fields.recordType;
  entry.recordId = fields.recordId;
  entry.type = fields.type;
  entry.seq = nextSeq(at);
  entry.occurredAt = at;
  entry.actorUserId = actor.userId;
  entry.actorApiKeyId = actor.apiKeyId ?? null;
  entry.actorEmail = actor.email;
  entry.requestId = actor.requestId ?? null;
  entry.description = fields.description;
  entry.changes = fields.changes;
  return entry;
}

/** Descriptions a domain operation gave its change (a stock adjustment's figures), in order. */
const notes = new WeakMap<object, string[]>();

/** Records `description` as an UPDATE of `record`, made by the flush that stores its change. */
export function noteChange(record: object, description: string): void {
  notes.set(record, [...(notes.get(record) ?? []), description]);
}

/** The notes given to `record` and not yet recorded; they are recorded by whoever takes them. */
export function takeNotes(record: object): string[] {
  const taken = notes.get(record) ?? [];
  notes.delete(record);
  return taken;
}

/**
 * Per record, the entries of the latest flush that made any, with the change set they were made
 * for: the outbox (events/outbox.ts) takes those of the change set it is given, so a later flush
 * that records nothing for the record never sends them again; a create's answer (events.ts)
 * shows them whatever flush came after.
 */
const made = new WeakMap<object, { changeSet: object; entries: readonly HistoryEntry[] }>();

export const entriesOfLatestFlush = (record: object): readonly HistoryEntry[] | undefined =>
  made.get(record)?.entries;

/** The entries this flush made for the record of `changeSet` (none if it made none). */
export const entriesMadeFor = (changeSet: { entity: object }): readonly HistoryEntry[] => {
  const kept = made.get(changeSet.entity);
  return kept?.changeSet === changeSet ? kept.entries : [];
};

/**
 * Adds this flush's history entries to the flush: one per creation or restore, one STATUS_CHANGE
 * when the status moved, one UPDATE for the other fields (and one per note given), and one
 * DELETE per deletion logged in the audit log. `stamp` runs first for each changed record (the
 * audit fields); a change of bookkeeping alone records nothing.
 */
export function recordChanges(changes: Changes, actor: Actor | undefined): void {
  const platform = changes.em.getPlatform();
  const metadata = changes.em.getMetadata();
  const entries: HistoryEntry[] = [];
  // This flush's entries go out with its statements, past the unit of work (`newRow`).
  const entry = (by: Actor, fields: Parameters<typeof historyEntry>[1]) =>
    historyEntry(by, fields, newRow(changes.em, HistoryEntry));
  const changeSets = changes.changes;
  // Deletions the audit log records (a group's): their entry comes from the audit log's row.
  const logged = new Set(
    changeSets
      .filter((cs) => cs.type === 'create' && cs.entity instanceof AuditLog && cs.entity.action === 'DELETE')
      .map((cs) => (cs.entity as AuditLog).entityId),
  );
  for (const cs of changeSets) {
    const entity = cs.entity as object;
    if (cs.type === 'delete' && keepsHistory(entity, cs.name) && !logged.has((entity as { id: string }).id)) {
      if (!actor) throw new Error(`deletion of ${cs.name} without an actor`);
      entries.push(
        entry(actor, {
          recordType: cs.name,
          recordId: (entity as { id: string }).id,
          type: HistoryType.DELETE,
          description: `Deleted ${cs.name}`,
          changes: fieldChanges(
            cs.meta,
            (cs.originalEntity ?? entity) as Record<string, unknown>,
            undefined,
            platform,
          ),
        }),
      );
      continue;
    }
    if (cs.type === 'create' && entity instanceof AuditLog && entity.action === 'DELETE') {
      const meta = metadata.find(entity.entity);
      if (!meta || !keepsHistory(meta.class.prototype, entity.entity)) continue;
      if (!actor) throw new Error(`deletion of ${entity.entity} without an actor`);
      const data = (entity.data ?? {}) as Record<string, unknown>;
      entries.push(
        entry(actor, {
          recordType: entity.entity,
          recordId: entity.entityId,
          type: HistoryType.DELETE,
          description: `Deleted ${entity.entity}`,
          changes: fieldChanges(meta, data, undefined, platform),
        }),
      );
      continue;
    }
    if (!keepsHistory(entity, cs.name) || (cs.type !== 'create' && cs.type !== 'update')) continue;
    if (!actor) throw new Error(`${cs.type} of ${cs.name} without an actor`);
    const meta = cs.meta;
    const id = (entity as { id: string }).id;
    // The time the tenancy subscriber stamped on the record, so an entry and its record agree.
    const stamped = (entity as { updated?: unknown }).updated;
    const at = stamped instanceof Date ? stamped : undefined;
    const own: HistoryEntry[] = [];
    if (cs.type === 'create') {
      const restored = takeRestore(entity);
      own.push(
        entry(actor, {
          recordType: cs.name,
          recordId: id,
          type: restored ? HistoryType.RESTORE : HistoryType.CREATE,
          description: `${restored ? 'Restored' : 'Created'} ${cs.name}`,
          changes: fieldChanges(meta, undefined, entity as Record<string, unknown>, platform),
          at,
        }),
      );
    } else {
      const before = cs.originalEntity as Record<string, unknown> | undefined;
      const changed = Object.keys(cs.payload).filter((k) => !BOOKKEEPING.has(k));
      for (const note of takeNotes(entity))
        own.push(
          entry(actor, {
            recordType: cs.name,
            recordId: id,
            type: HistoryType.UPDATE,
            description: note,
            changes: null,
            at,
          }),
        );
      const after = entity as Record<string, unknown>;
      if (changed.includes('status') && before) {
        own.push(
          entry(actor, {
            recordType: cs.name,
            recordId: id,
            type: HistoryType.STATUS_CHANGE,
            description: `${(before.status as string | null) ?? 'null'} -> ${after.status as string}`,
            changes: fieldChanges(meta, before, after, platform, ['status']),
            at,
          }),
        );
      }
      const others = changed.filter((k) => k !== 'status');
      if (others.length > 0) {
        // A secret's name is not shown either: that one changed is all the history says.
        const named = others.filter((k) => !isSecretField(cs.name, k));
        const secret = named.length < others.length ? ['a secret'] : [];
        own.push(
          entry(actor, {
            recordType: cs.name,
            recordId: id,
            type: HistoryType.UPDATE,
            description: `Updated ${[...named, ...secret].join(', ')}`,
            changes: fieldChanges(meta, before, after, platform, others),
            at,
          }),
        );
      }
    }
    if (own.length === 0) continue;
    made.set(entity, { changeSet: cs, entries: own });
    entries.push(...own);
  }
  insertWithFlush(changes, HistoryEntry.name, entries);
}

/**
 * Adds rows that a flush writes beside its changes and never reads back (history, outbox): in a
 * request's transaction they go out with its next statement (db/orm-bypass/deferred-writes.ts),
 * elsewhere as part of the flush. A lone write is made only in a request's transaction.
 */
export function insertWithFlush(changes: Changes, entityName: string, rows: readonly object[]): void {
  if (deferInsert(changes.em, entityName, rows)) return;
  if (!changes.uow) throw new Error(`rows of ${entityName} for a lone write outside a request transaction`);
  for (const row of rows) changes.uow.computeChangeSet(row);
}

/** The entry of a deletion made by a statement rather than logged in the audit log. */
export function deletionHistory(
  em: EntityManager,
  actor: Actor,
  entityName: string,
  record: object,
): HistoryEntry {
  return historyEntry(actor, {
    recordType: entityName,
    recordId: (record as { id: string }).id,
    type: HistoryType.DELETE,
    description: `Deleted ${entityName}`,
    changes: fieldChanges(
      em.getMetadata().get(entityName),
      wrap(record).toPOJO() as Record<string, unknown>,
      undefined,
      em.getPlatform(),
    ),
  });
}

/**
 * Records the history of every change of a flush, in its transaction. The composition runs it
 * after the tenancy subscriber (db/tenancy.ts), whose stamps the entries take, and before the
 * outbox's, which turns the entries into events.
 */
export class HistorySubscriber extends ChangeSubscriber {
  onChanges(changes: Changes): void {
    recordChanges(changes, actorOf(changes.em));
  }
}
