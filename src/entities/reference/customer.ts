import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** What Customer fields mean, shared with the inputs that set them. */
export const CUSTOMER_DOCS = {
  name: 'Name of the customer.',
  email: "The customer's e-mail address.",
  phone: "The customer's phone number.",
} as const;

@Entity({ tableName: 'customer' })
@Index({ name: 'customer_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'A customer (client) of the tenant.' })
export class Customer extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: CUSTOMER_DOCS.name }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.email })
  email?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.phone })
  phone?: string;
}
