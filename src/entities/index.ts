import { configuratorEntities } from '../domain/configurator/entities';
import { crmEntities } from '../domain/crm/entities';
import { financeEntities } from '../domain/finance/entities';
import { hrEntities } from '../domain/hr/entities';
import { inventoryEntities } from '../domain/inventory/entities';
import { notificationEntities } from '../domain/notifications/entities';
import { NotificationProducerSubscriber } from '../domain/notifications/produce';
import { webhookEntities } from '../domain/webhooks/entities';
import { referenceEntities } from '../domain/reference/entities';
import { AuditLog } from './audit-log';
import { HistoryEntry } from './history-entry';
import { Tenant } from './tenant';
import { TenantRole } from './tenant-role';
import { User } from './user';
import { TrustedIssuer } from './trusted-issuer';
import { ApiKey } from './api-key';
import { TenantSequence } from './tenant-sequence';
import { IdempotencyKey } from './idempotency-key';
import { OutboxEvent } from './outbox-event';

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
  ...hrEntities,
  ...crmEntities,
  ...inventoryEntities,
  ...notificationEntities,
  OutboxEvent,
  ...webhookEntities,
];

/**
 * What the domains add to every flush, before the kernel's own subscribers (tenancy, then the
 * outbox): the notification producers, so tenancy stamps the notifications they add and records
 * their history. Composed here, beside the entity list, so the ORM's set-up (db/orm.ts) names no
 * domain; a fresh list per ORM, since a subscriber may keep state for the flush under way.
 */
export const domainFlushSubscribers = () => [new NotificationProducerSubscriber()];
