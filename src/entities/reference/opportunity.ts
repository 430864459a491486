import { Entity, Index, Property } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** What Opportunity fields mean, shared with the inputs that set them. */
export const OPPORTUNITY_DOCS = {
  name: 'Name of the opportunity.',
  customerId: 'Id of the customer.',
} as const;

@Entity({ tableName: 'opportunity' })
@Index({ name: 'opportunity_tenant_customer_idx', properties: ['tenantId', 'customerId'] })
@ObjectType({ description: 'A sales opportunity.' })
export class Opportunity extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: OPPORTUNITY_DOCS.name }) name!: string;
  @DecimalColumn(14, 2, { description: 'Expected value of the opportunity.' })
  value?: number;
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: OPPORTUNITY_DOCS.customerId })
  customerId?: string;
}
