import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

@Entity({ tableName: 'customer' })
@Index({ name: 'customer_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'A customer (client) of the tenant.' })
export class Customer extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the customer.' }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The customer's e-mail address." })
  email?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The customer's phone number." })
  phone?: string;
}
