import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../graphql/date-time';

export enum EventType {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  STATUS_CHANGE = 'STATUS_CHANGE',
  DELETE = 'DELETE',
}
registerEnumType(EventType, { name: 'EventType', description: 'What happened to a record.' });

/** One entry of a record's history; kept in the record's `events` JSON column. */
@ObjectType({ description: 'One entry of a record history.' })
export class Event {
  @Field(() => ID)
  id!: string;

  @Field(() => EventType)
  type!: EventType;

  @Field(() => DateTimeISOResolver, { description: 'When it happened.' })
  date!: string;

  @Field(() => String, { nullable: true, description: 'Id of the user who caused it.' })
  authorId!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;
}
