import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

export enum ActivityType {
  CALL = 'CALL',
  EMAIL = 'EMAIL',
  MEETING = 'MEETING',
  NOTE = 'NOTE',
  TASK = 'TASK',
}
registerEnumType(ActivityType, { name: 'ActivityType', description: 'What kind of contact an activity is.' });

export enum ActivityPriority {
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
  URGENT = 'URGENT',
}
registerEnumType(ActivityPriority, { name: 'ActivityPriority' });

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
  @Field(() => String)
  subject!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  description?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  location?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  outcome?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  contactEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  contactName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  contactPhone?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  customerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  opportunityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The user responsible; the creator by default.' })
  ownerId?: string | null;

  @Enum({ items: () => ActivityType })
  @Field(() => ActivityType)
  type!: ActivityType;

  @Enum({ items: () => ActivityPriority, nullable: true })
  @Field(() => ActivityPriority, { nullable: true })
  priority?: ActivityPriority | null;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  attendees: string[] = [];

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  scheduledAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  dueDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the owner was reminded that the activity is due.',
  })
  dueNotifiedAt?: Date | null;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true })
  durationMinutes?: number | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  completed: boolean = false;

  @Field(() => Boolean, { description: 'Same as `completed`.' })
  get isCompleted(): boolean {
    return this.completed;
  }
}
