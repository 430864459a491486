import { randomUUID } from 'node:crypto';
import { wrap, type EventSubscriber, type FlushEventArgs } from '@mikro-orm/core';
import { AuditLog } from '../entities/audit-log';
import { EventType, type Event } from '../entities/event';
import { OutboxEvent, type EventActor } from '../entities/events/outbox-event';
import { Audited } from '../entities/tenant-scoped';
import { actorOf } from '../db/tenancy';
import { domainEventsOf } from './domain-events';

/** The action part of an event name, per kind of history entry. */
const ACTIONS: Record<EventType, string> = {
  [EventType.CREATE]: 'created',
  [EventType.UPDATE]: 'updated',
  [EventType.STATUS_CHANGE]: 'status_changed',
  [EventType.DELETE]: 'deleted',
};

/** `HrProject` -> `hr_project`: the resource part of an event name. */
export const resourceName = (entityName: string): string =>
  entityName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

export const eventName = (entityName: string, type: EventType): string =>
  `${resourceName(entityName)}.${ACTIONS[type]}`;

/** The record as REST shows it: its stored fields, without the GraphQL-only row version. */
export function recordData(entity: object): Record<string, unknown> {
  const data = wrap(entity).toObject() as Record<string, unknown>;
  delete data.version;
  return data;
}

/** A record's history as the change set's snapshot holds it (JSON columns are kept as text there). */
function historyOf(value: unknown): Event[] {
  if (typeof value === 'string') return JSON.parse(value) as Event[];
  return Array.isArray(value) ? (value as Event[]) : [];
}

/** A new outbox row; `occurredAt` is the history entry's own time where there is one. */
export function outboxRow(fields: {
  tenantId: string;
  type: string;
  resourceType: string;
  resourceId: string | null;
  occurredAt?: Date;
  actor: EventActor | null;
  data: unknown;
  targetEndpointId?: string;
}): OutboxEvent {
  const row = new OutboxEvent();
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

/**
 * Writes the outbox. Runs after the tenancy subscriber has appended this flush's history entries
 * (CREATE, UPDATE, STATUS_CHANGE) to each record, and turns every new entry, and every deletion
 * recorded in the audit log, into an outbox row inserted by the same flush: the change and its
 * event commit or roll back together. A change a domain event describes (domain-events.ts) adds
 * that event too.
 */
export class OutboxSubscriber implements EventSubscriber {
  onFlush(args: FlushEventArgs): void {
    const actor = actorOf(args.em);
    const who: EventActor | null = actor ? { userId: actor.userId, email: actor.email } : null;
    const rows: OutboxEvent[] = [];
    for (const cs of args.uow.getChangeSets()) {
      const entity = cs.entity as unknown;
      if (cs.type === 'create' && entity instanceof AuditLog && entity.action === 'DELETE') {
        rows.push(
          outboxRow({
            tenantId: entity.tenantId,
            type: eventName(entity.entity, EventType.DELETE),
            resourceType: resourceName(entity.entity),
            resourceId: entity.entityId,
            actor: who,
            data: entity.data ?? null,
          }),
        );
        continue;
      }
      if (!(entity instanceof Audited) || (cs.type !== 'create' && cs.type !== 'update')) continue;
      const before = new Set(
        historyOf(cs.type === 'update' ? cs.originalEntity?.events : undefined).map((e) => e.id),
      );
      const added = entity.events.filter((e) => !before.has(e.id));
      if (added.length === 0) continue;
      const data = recordData(entity);
      const previous = cs.type === 'update' ? (cs.originalEntity as Record<string, unknown>) : undefined;
      const domain = domainEventsOf(cs.name).filter((d) => d.happened(previous, data));
      for (const e of added) {
        rows.push(
          outboxRow({
            tenantId: entity.tenantId,
            type: eventName(cs.name, e.type),
            resourceType: resourceName(cs.name),
            resourceId: entity.id,
            occurredAt: new Date(e.date),
            actor: who,
            data,
          }),
        );
      }
      // The domain's own names, after the record's events, at the time of its latest entry.
      for (const d of domain) {
        rows.push(
          outboxRow({
            tenantId: entity.tenantId,
            type: d.name,
            resourceType: resourceName(cs.name),
            resourceId: entity.id,
            occurredAt: new Date(added[added.length - 1].date),
            actor: who,
            data,
          }),
        );
      }
    }
    for (const row of rows) args.uow.computeChangeSet(row);
  }
}
