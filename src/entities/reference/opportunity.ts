import { DecimalType, Entity, Index, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

@Entity({ tableName: 'opportunity' })
@Index({ name: 'opportunity_tenant_customer_idx', properties: ['tenantId', 'customerId'] })
@ObjectType({ description: 'A sales opportunity.' })
export class Opportunity extends Audited {
  @Property({ type: 'text' }) @Field(() => String) name!: string;
  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,2)', nullable: true })
  @Field(() => Float, { nullable: true })
  value?: number;
  @Property({ type: 'uuid', nullable: true }) @Field(() => String, { nullable: true }) customerId?: string;
}
