import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanPairColumn,
  DateTimeColumn,
  EnumColumn,
  IntColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';

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

/** What Activity fields mean, shared with the inputs that set them. */
export const ACTIVITY_DOCS = {
  description: 'Longer description of the activity.',
  location: 'Where it takes place.',
  outcome: 'What came of it.',
  contactEmail: 'E-mail address of the person contacted.',
  contactName: 'Name of the person contacted.',
  contactPhone: 'Phone number of the person contacted.',
  customerId: 'Id of the customer it concerns; `customer` is that customer.',
  opportunityId: 'Id of the opportunity it concerns; `opportunity` is that opportunity.',
  priority: 'How urgent it is.',
  attendees: 'Who takes part (names or e-mail addresses).',
  scheduledAt: 'When it is planned.',
  dueDate: 'When it must be done.',
  dueNotifiedAt: 'When the owner was reminded that the activity is due.',
  durationMinutes: 'How long it takes, in minutes.',
  completed: 'True once done; same as `isCompleted`.',
  isCompleted: 'Same as `completed`.',
  subject: 'What the activity is about (1 to 500 characters).',
  type: 'What kind of contact it is.',
} as const;

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
  @TextColumn({ nullable: false, description: ACTIVITY_DOCS.subject })
  subject!: string;

  @TextColumn({ description: ACTIVITY_DOCS.description })
  description?: string | null;

  @TextColumn({ description: ACTIVITY_DOCS.location })
  location?: string | null;

  @TextColumn({ description: ACTIVITY_DOCS.outcome })
  outcome?: string | null;

  @TextColumn({ description: ACTIVITY_DOCS.contactEmail })
  contactEmail?: string | null;

  @TextColumn({ description: ACTIVITY_DOCS.contactName })
  contactName?: string | null;

  @TextColumn({ description: ACTIVITY_DOCS.contactPhone })
  contactPhone?: string | null;

  @UuidColumn({ description: ACTIVITY_DOCS.customerId })
  customerId?: string | null;

  @UuidColumn({ description: ACTIVITY_DOCS.opportunityId })
  opportunityId?: string | null;

  @UuidColumn({ description: 'The user responsible; the creator by default.' })
  ownerId?: string | null;

  @EnumColumn(() => ActivityType, { nullable: false, description: ACTIVITY_DOCS.type })
  type!: ActivityType;

  @EnumColumn(() => ActivityPriority, { description: ACTIVITY_DOCS.priority })
  priority?: ActivityPriority | null;

  @TextListColumn({ description: ACTIVITY_DOCS.attendees })
  attendees: string[] = [];

  @DateTimeColumn({ description: ACTIVITY_DOCS.scheduledAt })
  scheduledAt?: Date | null;

  @DateTimeColumn({ description: ACTIVITY_DOCS.dueDate })
  dueDate?: Date | null;

  @DateTimeColumn({
    description:
      'When it was completed; set to now when `completed` becomes true without one, cleared on reopening.',
  })
  completedAt?: Date | null;

  @DateTimeColumn({ description: ACTIVITY_DOCS.dueNotifiedAt })
  dueNotifiedAt?: Date | null;

  @IntColumn({ description: ACTIVITY_DOCS.durationMinutes })
  durationMinutes?: number | null;

  @BooleanPairColumn('isCompleted', {
    nullable: false,
    description: ACTIVITY_DOCS.completed,
    aliasDescription: ACTIVITY_DOCS.isCompleted,
  })
  completed: boolean = false;
}
