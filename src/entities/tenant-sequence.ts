import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The last number handed out per tenant and sequence name (invoice numbers, transfer numbers). */
@Entity({ tableName: 'tenant_sequence' })
export class TenantSequence {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'text' })
  name!: string;

  @Property({ type: 'bigint', runtimeType: 'number' })
  value!: number;
}
