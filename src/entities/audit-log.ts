import { Entity, Index, Property } from '@mikro-orm/core';
import { TenantScoped } from './tenant-scoped';

/** Deleted records are gone from their tables; this log keeps who deleted what, and its data. */
@Entity({ tableName: 'audit_log' })
@Index({ name: 'audit_log_tenant_entity_idx', properties: ['tenantId', 'entity', 'entityId'] })
export class AuditLog extends TenantScoped {
  @Property({ type: 'text' })
  entity!: string;

  @Property({ type: 'uuid' })
  entityId!: string;

  @Property({ type: 'text' })
  action!: string;

  @Property({ type: 'json', nullable: true })
  data?: unknown;
}
