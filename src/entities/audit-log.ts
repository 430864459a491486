import { Entity, Index, Property, wrap, type EntityManager } from '@mikro-orm/core';
import { plainData } from '../db/orm-bypass/plain-data';
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

/** The log entry of a deletion: which record of which entity, and its data as it was. */
export function deletionEntry(
  em: EntityManager,
  tenantId: string,
  entity: string,
  row: { id: string },
): AuditLog {
  return em.create(AuditLog, {
    tenantId,
    entity,
    entityId: row.id,
    action: 'DELETE',
    data: plainData(row) ?? wrap(row).toPOJO(),
  } as never);
}
