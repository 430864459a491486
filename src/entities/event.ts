import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../schema/date-time';

export enum EventType {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  STATUS_CHANGE = 'STATUS_CHANGE',
  DELETE = 'DELETE',
  RESTORE = 'RESTORE',
}
registerEnumType(EventType, {
  name: 'EventType',
  description: 'What happened to a record.',
  valuesConfig: {
    CREATE: { description: 'The record was created.' },
    UPDATE: { description: 'Fields of the record changed; the event names them.' },
    STATUS_CHANGE: { description: 'The status changed; the event says `OLD -> NEW`.' },
    DELETE: { description: 'The record was deleted (its data is kept in the audit log).' },
    RESTORE: { description: 'The record was restored after a deletion.' },
  },
});

/** One entry of a record's history as `events` show it (the history table holds it: history-entry.ts). */
@ObjectType({ description: 'One entry of a record history.' })
export class Event {
  @Field(() => ID, { description: 'Id of the event (a UUID).' })
  id!: string;

  @Field(() => EventType, { description: 'What happened.' })
  type!: EventType;

  @Field(() => DateTimeISOResolver, { description: 'When it happened.' })
  date!: string;

  @Field(() => String, { nullable: true, description: 'Id of the user who caused it.' })
  authorId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'For an UPDATE the changed fields, for a STATUS_CHANGE `OLD -> NEW`.',
  })
  description!: string | null;
}
