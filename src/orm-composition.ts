import { accessEntities } from './domain/access/entities';
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
import { CallerVersion } from './entities/caller-version';
import { JobRun } from './entities/job-run';
import { TenantExport } from './entities/tenant-export';
import { HistorySettings } from './entities/history-settings';
import { LiveTenant } from './entities/live-tenant';
import { WebhookBacklog } from './entities/webhook-backlog';

/**
 * Every entity the ORM knows; each one but Tenant, CallerVersion and JobRun is tenant-scoped
 * (src/db/orm.ts says why). The tables no one domain owns are here (tenants, users and their
 * credentials and caller versions, history and audit with its settings, sequences, idempotency
 * keys, tenant exports, the scheduled jobs' runs, the outbox and what the event worker keeps beside
 * it: the live marks and the webhook backlog); each domain's are its module's `entities/index.ts`,
 * the list its registry gives (test/foundation/modules.test.ts holds the two to each other).
 */
export const entities: Function[] = [
  Tenant,
  User,
  TenantRole,
  AuditLog,
  HistoryEntry,
  HistorySettings,
  TenantSequence,
  IdempotencyKey,
  TrustedIssuer,
  ApiKey,
  CallerVersion,
  TenantExport,
  JobRun,
  ...accessEntities,
  ...referenceEntities,
  ...configuratorEntities,
  ...financeEntities,
  ...fileEntities,
  ...hrEntities,
  ...crmEntities,
  ...inventoryEntities,
  ...notificationEntities,
  OutboxEvent,
  LiveTenant,
  ...webhookEntities,
  WebhookBacklog,
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
