import type { MikroORM } from '@mikro-orm/core';
import { asEventWorker } from './store';

/**
 * Marks the tenant live for `seconds` from now (`live_tenant`, through its security-definer
 * function, the one writer of the table: Migration20261123150000_live_tenants); a later mark
 * already there is kept.
 */
export async function markTenantLive(orm: MikroORM, tenantId: string, seconds: number): Promise<void> {
  await asEventWorker(orm, (q) => q('select bms_live_tenant(?::uuid, ?::integer)', [tenantId, seconds]));
}
