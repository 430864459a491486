import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';

/**
 * A customer organisation. Its id is the tenant id every other record carries, so its own
 * table is keyed by that id alone.
 */
@Entity({ tableName: 'tenant' })
@ObjectType({ description: 'A tenant: one customer organisation.' })
export class Tenant {
  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID)
  id: string = randomUUID();

  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  domain?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  active: boolean = true;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  created?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  createdBy?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  updated?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  updatedBy?: string;
}
