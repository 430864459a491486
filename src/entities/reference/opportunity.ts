import { Entity, Index, Property } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

@Entity({ tableName: 'opportunity' })
@Index({ name: 'opportunity_tenant_customer_idx', properties: ['tenantId', 'customerId'] })
@ObjectType({ description: 'A sales opportunity.' })
export class Opportunity extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the opportunity.' }) name!: string;
  @DecimalColumn(14, 2, { description: 'Expected value of the opportunity.' })
  value?: number;
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the customer.' })
  customerId?: string;
}
