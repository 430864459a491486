import { EventType } from '../entities/event';
import { Audited } from '../entities/tenant-scoped';
import { domainEventsOf } from './domain-events';
import { eventName, resourceName } from './outbox';

export const TEST_EVENT = 'webhook.test';

/** The webhook events of stored files (no record has their history: the table is not an entity). */
export const FILE_EVENTS = ['file.created', 'file.deleted'] as const;
export type FileEventName = (typeof FILE_EVENTS)[number];

/** A record type that has a history, and so events: entity name, resource name, its event names. */
export interface EventResource {
  entity: string;
  resource: string;
  events: string[];
}

/**
 * The records of `entities` that have a history, and so events: the four of every record, then
 * its domain events (domain-events.ts). The entity list is handed in (the ORM's, or the
 * composition's for the documents), so the catalog names no module.
 */
export function eventResources(entities: readonly Function[]): EventResource[] {
  return entities
    .filter((e) => e.prototype instanceof Audited)
    .map((e) => ({
      entity: e.name,
      resource: resourceName(e.name),
      events: [
        ...Object.values(EventType).map((t) => eventName(e.name, t)),
        ...domainEventsOf(e.name).map((d) => d.name),
      ],
    }));
}

const names = new WeakMap<readonly Function[], readonly string[]>();

/** Every event name a webhook may ask for, given the entity list. */
export function eventNames(entities: readonly Function[]): readonly string[] {
  let found = names.get(entities);
  if (!found) {
    found = [...eventResources(entities).flatMap((r) => r.events), ...FILE_EVENTS, TEST_EVENT].sort();
    names.set(entities, found);
  }
  return found;
}
