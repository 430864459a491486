import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { EventType } from '../entities/event';
import { DateTimeISOResolver } from '../schema/date-time';
import { PageOf } from '../schema/page';

@ObjectType('FieldChange', { description: "One field's value before and after a change." })
export class FieldChangeView {
  @Field(() => String, { description: 'The field, as the record names it.' })
  field!: string;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'The value before (null for a creation or restore).',
  })
  old!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The value after (null for a deletion).' })
  new!: unknown;
}

@ObjectType('HistoryEntry', {
  description:
    'One change of a record: what happened, to which fields (values before and after; secrets never shown), who made it, in which request, and when.',
})
export class HistoryEntryView {
  @Field(() => ID, { description: 'Id of the entry; the same as the id of the matching `events` entry.' })
  id!: string;

  @Field(() => String, { description: 'The record type (`Feature`, `Invoice`, `WebhookEndpoint`...).' })
  recordType!: string;

  @Field(() => ID, { description: 'Id of the record changed.' })
  recordId!: string;

  @Field(() => EventType, { description: 'What happened.' })
  type!: EventType;

  @Field(() => DateTimeISOResolver, { description: 'When it happened (ISO 8601, UTC).' })
  occurredAt!: Date;

  @Field(() => ID, {
    nullable: true,
    description: "The user who made the change (an API key's creator); null for the service's own jobs.",
  })
  userId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The API key the change was made with, if any.' })
  apiKeyId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Who made it, as written: the user's e-mail, `api-key:<id>`, or the job's name.",
  })
  actor!: string | null;

  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request that made it.' })
  requestId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'For an UPDATE the changed fields, for a STATUS_CHANGE `OLD -> NEW`.',
  })
  description!: string | null;

  @Field(() => [FieldChangeView], {
    description: 'The changed fields with their values before and after; empty where none were kept.',
  })
  changes!: FieldChangeView[];
}

export const HistoryPage = PageOf(HistoryEntryView, 'HistoryEntry');
