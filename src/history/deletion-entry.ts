import { wrap, type EntityManager } from '@mikro-orm/core';
import { AuditLog } from '../entities/audit-log';

/**
 * The log entry of a deletion: which record of which entity, and its data as it was; queued for
 * the next flush unless `persist` is false.
 */
export function deletionEntry(
  em: EntityManager,
  tenantId: string,
  entity: string,
  row: { id: string },
  persist = true,
): AuditLog {
  return em.create(
    AuditLog,
    { tenantId, entity, entityId: row.id, action: 'DELETE', data: wrap(row).toPOJO() } as never,
    { persist },
  );
}
