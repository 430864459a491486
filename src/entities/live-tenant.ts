import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A tenant someone holds live subscriptions in, until `until` (Migration20261123150000_live_tenants):
 * the outbox's trigger notifies a tenant's events only while its mark is current. Written only by
 * the security-definer function `bms_live_tenant` (events/live-tenant-repository.ts), so the
 * entity only reads it. The row is keyed by the tenant's own id.
 */
@Entity({ tableName: 'live_tenant', readonly: true })
export class LiveTenant {
  @PrimaryKey({ type: 'uuid', fieldName: 'id' })
  tenantId!: string;

  @Property({ type: 'timestamptz' })
  until!: Date;
}
