import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

export enum ActivityType {
  CALL = 'CALL',
  EMAIL = 'EMAIL',
  MEETING = 'MEETING',
  NOTE = 'NOTE',
  TASK = 'TASK',
}
registerEnumType(ActivityType, {
  name: 'ActivityType',
  description: 'What kind of contact an activity is.',
  valuesConfig: {
    CALL: { description: 'A phone call.' },
    EMAIL: { description: 'An e-mail.' },
    MEETING: { description: 'A meeting.' },
    NOTE: { description: 'A note.' },
    TASK: { description: 'A task to do.' },
  },
});

export enum ActivityPriority {
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
  URGENT = 'URGENT',
}
registerEnumType(ActivityPriority, {
  name: 'ActivityPriority',
  description: 'How urgent an activity is.',
  valuesConfig: {
    LOW: { description: 'Low priority.' },
    MEDIUM: { description: 'Medium priority.' },
    HIGH: { description: 'High priority.' },
    URGENT: { description: 'Urgent.' },
  },
});

@Entity({ tableName: 'activity' })
@TenantIndexes(
  'activity',
  'subject',
  'contactName',
  'contactEmail',
  'type',
  'priority',
  'completed',
  'customerId',
  'opportunityId',
  'ownerId',
  'scheduledAt',
  'dueDate',
  'completedAt',
)
@ObjectType({ description: 'A CRM activity: a call, e-mail, meeting, note or task.' })
export class Activity extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: 'What the activity is about (1 to 500 characters).' })
  subject!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Longer description of the activity.' })
  description?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Where it takes place.' })
  location?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What came of it.' })
  outcome?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'E-mail address of the person contacted.' })
  contactEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Name of the person contacted.' })
  contactName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Phone number of the person contacted.' })
  contactPhone?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Id of the customer it concerns; `customer` is that customer.',
  })
  customerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Id of the opportunity it concerns; `opportunity` is that opportunity.',
  })
  opportunityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The user responsible; the creator by default.' })
  ownerId?: string | null;

  @Enum({ items: () => ActivityType })
  @Field(() => ActivityType, { description: 'What kind of contact it is.' })
  type!: ActivityType;

  @Enum({ items: () => ActivityPriority, nullable: true })
  @Field(() => ActivityPriority, { nullable: true, description: 'How urgent it is.' })
  priority?: ActivityPriority | null;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Who takes part (names or e-mail addresses).' })
  attendees: string[] = [];

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it is planned.' })
  scheduledAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it must be done.' })
  dueDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    description:
      'When it was completed; set to now when `completed` becomes true without one, cleared on reopening.',
    nullable: true,
  })
  completedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the owner was reminded that the activity is due.',
  })
  dueNotifiedAt?: Date | null;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: 'How long it takes, in minutes.' })
  durationMinutes?: number | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once done; same as `isCompleted`.' })
  completed: boolean = false;

  @Field(() => Boolean, { description: 'Same as `completed`.' })
  get isCompleted(): boolean {
    return this.completed;
  }
}
