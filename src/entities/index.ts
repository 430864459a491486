import { AuditLog } from './audit-log';
import { HistoryEntry } from './history-entry';
import { Tenant } from './tenant';
import { TenantRole } from './tenant-role';
import { User } from './user';
import { TrustedIssuer } from './trusted-issuer';
import { ApiKey } from './api-key';
import { TenantSequence } from './tenant-sequence';
import { IdempotencyKey } from './idempotency-key';
import { configuratorEntities } from './configurator';
import { crmEntities } from './crm';
import { financeEntities } from './finance';
import { hrEntities } from './hr';
import { inventoryEntities } from './inventory';
import { notificationEntities } from './notifications';
import { eventEntities } from './events';
import { referenceEntities } from './reference';

/** Every entity the ORM knows; each one but Tenant is tenant-scoped. */
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
  ...eventEntities,
];
