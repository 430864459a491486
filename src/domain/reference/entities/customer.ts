import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TenantIndexes, TextColumn } from '../../../entities/columns';

/** What Customer fields mean, shared with the inputs that set them. */
export const CUSTOMER_DOCS = {
  name: 'Name of the customer.',
  email: "The customer's e-mail address.",
  phone: "The customer's phone number.",
} as const;

@Entity({ tableName: 'customer' })
@TenantIndexes('customer', 'name')
@ObjectType({ description: 'A customer (client) of the tenant.' })
export class Customer extends Audited {
  @TextColumn({ nullable: false, description: CUSTOMER_DOCS.name })
  name!: string;

  @TextColumn({ description: CUSTOMER_DOCS.email })
  email?: string | null;
  @TextColumn({ description: CUSTOMER_DOCS.phone })
  phone?: string | null;
}
