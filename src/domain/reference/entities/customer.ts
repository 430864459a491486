import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TenantIndexes, TextColumn } from '../../../entities/columns';

/** What Customer fields mean, shared with the inputs that set them. */
export const CUSTOMER_DOCS = {
  name: 'Name of the customer.',
  email: "The customer's e-mail address.",
  phone: "The customer's phone number.",
  street: 'Street and house number of the postal address.',
  postalCode: 'Postal code of the postal address.',
  city: 'City of the postal address.',
  country: 'Country of the postal address, ISO 3166-1 alpha-2 (e.g. NL, DE).',
  vatNumber: 'VAT identification number, with its country prefix (e.g. DE123456789).',
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

  // The buyer's details a lawful EU invoice and an EN 16931 e-invoice need.
  @TextColumn({ description: CUSTOMER_DOCS.street })
  street?: string | null;
  @TextColumn({ description: CUSTOMER_DOCS.postalCode })
  postalCode?: string | null;
  @TextColumn({ description: CUSTOMER_DOCS.city })
  city?: string | null;
  @TextColumn({ description: CUSTOMER_DOCS.country })
  country?: string | null;
  @TextColumn({ description: CUSTOMER_DOCS.vatNumber })
  vatNumber?: string | null;
}
