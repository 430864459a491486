import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

@Entity({ tableName: 'supplier' })
@ObjectType({ description: 'A supplier the tenant buys from.' })
export class Supplier extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the supplier.' }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The supplier's e-mail address." })
  email?: string;
}
