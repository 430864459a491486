import { configuratorEntities } from './domain/configurator/entities';
import { crmEntities } from './domain/crm/entities';
import { financeEntities } from './domain/finance/entities';
import { fileEntities } from './domain/files/entities';
import { hrEntities } from './domain/hr/entities';
import { inventoryEntities } from './domain/inventory/entities';
import { notificationEntities } from './domain/notifications/entities';
import { NotificationProducerSubscriber } from './domain/notifications/produce';
import { webhookEntities } from './domain/webhooks/entities';
import { referenceEntities } from './domain/reference/entities';
import type { OrmComposition } from './db/orm';
import { TenancySubscriber } from './db/tenancy';
import { OutboxSubscriber } from './events/outbox';
import { HistorySubscriber } from './history/recorder';
import { AuditLog } from './entities/audit-log';
import { HistoryEntry } from './entities/history-entry';
import { Tenant } from './entities/tenant';
import { TenantRole } from './entities/tenant-role';
import { User } from './entities/user';
import { TrustedIssuer } from './entities/trusted-issuer';
import { ApiKey } from './entities/api-key';
import { TenantSequence } from './entities/tenant-sequence';
import { IdempotencyKey } from './entities/idempotency-key';
import { OutboxEvent } from './entities/outbox-event';

/**
 * Every entity the ORM knows; each one but Tenant is tenant-scoped. The tables no one domain
 * owns are here (tenants, users and their credentials, history and audit, sequences, idempotency
 * keys, the outbox); each domain's are its module's `entities/index.ts`, the list its registry
 * gives (test/foundation/modules.test.ts holds the two to each other).
 */
export const entities: Function[] = [
  Tenant,
  User,
  TenantRole,
  AuditLog,
  HistoryEntry,
  TenantSequence,
  IdempotencyKey,
  TrustedIssuer,
  ApiKey,
  ...referenceEntities,
  ...configuratorEntities,
  ...financeEntities,
  ...fileEntities,
  ...hrEntities,
  ...crmEntities,
  ...inventoryEntities,
  ...notificationEntities,
  OutboxEvent,
  ...webhookEntities,
];

/**
 * What runs on every flush, in order: the domains' subscribers first (the notification producers,
 * so tenancy stamps the notifications they add and their history is recorded), then tenancy's
 * stamps, the history the stamps date, and the outbox, which turns that history into events.
 * Composed here, beside the entity list, so the ORM's set-up (db/orm.ts) names no domain and no
 * layer above storage; a fresh list per ORM, since a subscriber may keep state for the flush
 * under way.
 */
export const ormComposition: OrmComposition = {
  entities,
  subscribers: () => [
    new NotificationProducerSubscriber(),
    new TenancySubscriber(),
    new HistorySubscriber(),
    new OutboxSubscriber(),
  ],
};
