import { entities } from '../entities';
import { EventType } from '../entities/event';
import { Audited } from '../entities/tenant-scoped';
import { FILE_EVENTS } from '../files/file-events';
import { domainEventsOf } from './domain-events';
import { eventName, resourceName } from './outbox';

export const TEST_EVENT = 'webhook.test';

/**
 * The records that have a history, and so events: entity name, resource name, and its event
 * names: the four of every record, then its domain events (domain-events.ts).
 */
export const EVENT_RESOURCES: readonly { entity: string; resource: string; events: string[] }[] = entities
  .filter((e) => e.prototype instanceof Audited)
  .map((e) => ({
    entity: e.name,
    resource: resourceName(e.name),
    events: [
      ...Object.values(EventType).map((t) => eventName(e.name, t)),
      ...domainEventsOf(e.name).map((d) => d.name),
    ],
  }));

/** Every event name a webhook may ask for. */
export const EVENT_NAMES: readonly string[] = [
  ...EVENT_RESOURCES.flatMap((r) => r.events),
  ...FILE_EVENTS,
  TEST_EVENT,
].sort();
