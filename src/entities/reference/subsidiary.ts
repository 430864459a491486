import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** A legal entity or branch of the tenant; records with a subsidiaryId are scoped to it. */
@Entity({ tableName: 'subsidiary' })
@ObjectType({ description: 'A subsidiary (branch) of the tenant.' })
export class Subsidiary extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the subsidiary.' }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Colour shown for the subsidiary (CSS colour).' })
  color?: string;
}
