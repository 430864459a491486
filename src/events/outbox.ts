import { randomUUID } from 'node:crypto';
import { wrap, type EntityManager } from '@mikro-orm/core';
import { AuditLog } from '../entities/audit-log';
import { EventType } from '../entities/event';
import { entriesMadeFor, insertWithFlush } from '../history/recorder';
import { newRow } from '../db/orm-bypass/deferred-writes';
import { OutboxEvent, type EventActor } from '../entities/outbox-event';
import { Audited } from '../entities/tenant-scoped';
import { actorOf } from '../db/tenancy';
import { ChangeSubscriber, type Changes } from '../db/record-changes';
import { domainEventsOf } from './domain-events';

/** The action part of an event name, per kind of history entry. */
const ACTIONS: Record<EventType, string> = {
  [EventType.CREATE]: 'created',
  [EventType.UPDATE]: 'updated',
  [EventType.STATUS_CHANGE]: 'status_changed',
  [EventType.DELETE]: 'deleted',
  [EventType.RESTORE]: 'restored',
};

/** `HrProject` -> `hr_project`: the resource part of an event name. */
export const resourceName = (entityName: string): string =>
  entityName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

export const eventName = (entityName: string, type: EventType): string =>
  `${resourceName(entityName)}.${ACTIONS[type]}`;

/**
 * The record as REST shows it: its stored fields, without the GraphQL-only row version. Its
 * history (`events`) is not sent: an event is one entry of it, and a receiver that keeps the
 * history has it already.
 */
export function recordData(entity: object): Record<string, unknown> {
  const data = wrap(entity).toObject() as Record<string, unknown>;
  delete data.version;
  delete data.events;
  return data;
}

/**
 * A new outbox row, filled into `row` (a flush's: `newRow`); `occurredAt` is the history entry's
 * own time where there is one.
 */
export function outboxRow(
  fields: {
    tenantId: string;
    type: string;
    resourceType: string;
    resourceId: string | null;
    occurredAt?: Date;
    actor: EventActor | null;
    data: unknown;
    targetEndpointId?: string;
  },
  row: OutboxEvent = new OutboxEvent(),
): OutboxEvent {
  row.id = randomUUID();
  row.tenantId = fields.tenantId;
  row.type = fields.type;
  row.resourceType = fields.resourceType;
  row.resourceId = fields.resourceId;
  row.occurredAt = fields.occurredAt ?? new Date();
  row.actor = fields.actor;
  row.data = fields.data;
  row.targetEndpointId = fields.targetEndpointId ?? null;
  row.dispatchedAt = null;
  return row;
}

/** The events each transaction's flushes wrote, by record, in order (`eventWrittenFor`). */
const written = new WeakMap<object, Map<string, { tenantId: string; id: string; type: string }[]>>();

function rememberWritten(em: EntityManager, rows: readonly OutboxEvent[]): void {
  const transaction = em.getTransactionContext<object>();
  if (!transaction || rows.length === 0) return;
  let byRecord = written.get(transaction);
  if (!byRecord) written.set(transaction, (byRecord = new Map()));
  for (const row of rows) {
    if (!row.resourceId) continue;
    const events = byRecord.get(row.resourceId) ?? [];
    events.push({ tenantId: row.tenantId, id: row.id, type: row.type });
    byRecord.set(row.resourceId, events);
  }
}

/**
 * The latest event (of `type`, when given) a flush of `em`'s transaction wrote for the tenant's
 * record `resourceId`, if one did: known without reading the outbox back.
 */
export function eventWrittenFor(
  em: EntityManager,
  tenantId: string,
  resourceId: string,
  type?: string,
): string | undefined {
  const transaction = em.getTransactionContext<object>();
  const events = transaction ? written.get(transaction)?.get(resourceId) : undefined;
  const found = events
    ?.filter((e) => e.tenantId === tenantId && (type === undefined || e.type === type))
    .at(-1);
  return found?.id;
}

const writeListeners = new Set<() => void>();

/**
 * Calls `listener` whenever a flush of this process writes outbox rows (before they commit, so
 * they may not be visible yet); returns what stops it. The event worker looks for them soon
 * rather than at its next poll (worker.ts).
 */
export function onOutboxWrites(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/**
 * Writes the outbox. Runs after the tenancy subscriber has recorded this flush's history
 * (history/recorder.ts), and turns every new history entry of a record with `events` (CREATE,
 * UPDATE, STATUS_CHANGE, RESTORE), and every deletion recorded in the audit log, into an outbox
 * row inserted by the same flush: the change and its event commit or roll back together. A change
 * a domain event describes (domain-events.ts) adds that event too.
 */
export class OutboxSubscriber extends ChangeSubscriber {
  onChanges(changes: Changes): void {
    const actor = actorOf(changes.em);
    const who: EventActor | null = actor ? { userId: actor.userId, email: actor.email } : null;
    const rows: OutboxEvent[] = [];
    // This flush's rows go out with its statements, past the unit of work (`newRow`).
    const row = (fields: Parameters<typeof outboxRow>[0]) =>
      outboxRow(fields, newRow(changes.em, OutboxEvent));
    for (const cs of changes.changes) {
      const entity = cs.entity as unknown;
      if (cs.type === 'create' && entity instanceof AuditLog && entity.action === 'DELETE') {
        const data = { ...((entity.data as Record<string, unknown> | null) ?? {}) };
        delete data.events;
        rows.push(
          row({
            tenantId: entity.tenantId,
            type: eventName(entity.entity, EventType.DELETE),
            resourceType: resourceName(entity.entity),
            resourceId: entity.entityId,
            actor: who,
            data: entity.data == null ? null : data,
          }),
        );
        continue;
      }
      if (!(entity instanceof Audited) || (cs.type !== 'create' && cs.type !== 'update')) continue;
      const added = entriesMadeFor(cs);
      if (added.length === 0) continue;
      const data = recordData(entity);
      const previous = cs.type === 'update' ? (cs.originalEntity as Record<string, unknown>) : undefined;
      const domain = domainEventsOf(cs.name).filter((d) => d.happened(previous, data));
      for (const e of added) {
        rows.push(
          row({
            tenantId: entity.tenantId,
            type: eventName(cs.name, e.type as unknown as EventType),
            resourceType: resourceName(cs.name),
            resourceId: entity.id,
            occurredAt: e.occurredAt,
            actor: who,
            data,
          }),
        );
      }
      // The domain's own names, after the record's events, at the time of its latest entry.
      for (const d of domain) {
        rows.push(
          row({
            tenantId: entity.tenantId,
            type: d.name,
            resourceType: resourceName(cs.name),
            resourceId: entity.id,
            occurredAt: added[added.length - 1].occurredAt,
            actor: who,
            data,
          }),
        );
      }
    }
    insertWithFlush(changes, OutboxEvent.name, rows);
    rememberWritten(changes.em, rows);
    if (rows.length > 0) for (const listener of writeListeners) listener();
  }
}
