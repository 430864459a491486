import { Entity, Index } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { DecimalColumn, TextColumn, UuidColumn } from '../../../entities/columns';
import { Audited } from '../../../entities/tenant-scoped';

/** What Opportunity fields mean, shared with the inputs that set them. */
export const OPPORTUNITY_DOCS = {
  name: 'Name of the opportunity.',
  customerId: 'Id of the customer.',
} as const;

@Entity({ tableName: 'opportunity' })
@Index({ name: 'opportunity_tenant_customer_idx', properties: ['tenantId', 'customerId'] })
@ObjectType({ description: 'A sales opportunity.' })
export class Opportunity extends Audited {
  @TextColumn({ nullable: false, description: OPPORTUNITY_DOCS.name })
  name!: string;

  @DecimalColumn(14, 2, { description: 'Expected value of the opportunity.' })
  value?: number | null;
  @UuidColumn({ description: OPPORTUNITY_DOCS.customerId })
  customerId?: string | null;
}
