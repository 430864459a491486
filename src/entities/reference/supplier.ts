import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** What Supplier fields mean, shared with the inputs that set them. */
export const SUPPLIER_DOCS = {
  name: 'Name of the supplier.',
  email: "The supplier's e-mail address.",
} as const;

@Entity({ tableName: 'supplier' })
@ObjectType({ description: 'A supplier the tenant buys from.' })
export class Supplier extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: SUPPLIER_DOCS.name }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: SUPPLIER_DOCS.email })
  email?: string;
}
