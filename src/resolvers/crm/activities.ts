import { Field, InputType, Int } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsOptional,
  IsUUID,
  Length,
  MaxLength,
  Min,
} from 'class-validator';
import { callerOf } from '../../context';
import { Activity, ActivityPriority, ActivityType } from '../../entities/crm/activity';
import { Customer } from '../../entities/reference/customer';
import { Opportunity } from '../../entities/reference/opportunity';
import { User } from '../../entities/user';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import { NotNullWhenGiven } from './validation';
import { AUDIT_FIELDS } from '../../family/fields';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by new activities and changes.' })
class ActivityFields {
  @Field(() => String, { description: 'Longer description of the activity.', nullable: true })
  @IsOptional()
  @MaxLength(10000)
  description?: string;
  @Field(() => String, { description: 'Where it takes place.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  location?: string;
  @Field(() => String, { description: 'What came of it.', nullable: true })
  @IsOptional()
  @MaxLength(10000)
  outcome?: string;
  @Field(() => String, { description: 'E-mail address of the person contacted.', nullable: true })
  @IsOptional()
  @IsEmail()
  contactEmail?: string;
  @Field(() => String, { description: 'Name of the person contacted.', nullable: true })
  @IsOptional()
  @MaxLength(200)
  contactName?: string;
  @Field(() => String, { description: 'Phone number of the person contacted.', nullable: true })
  @IsOptional()
  @MaxLength(50)
  contactPhone?: string;
  @Field(() => String, {
    description: 'Id of the customer it concerns; `customer` is that customer.',
    nullable: true,
  })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, {
    description: 'Id of the opportunity it concerns; `opportunity` is that opportunity.',
    nullable: true,
  })
  @IsOptional()
  @IsUUID()
  opportunityId?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A user id; the creator when a new activity leaves it out.',
  })
  @IsOptional()
  @IsUUID()
  ownerId?: string;

  @Field(() => ActivityPriority, { description: 'How urgent it is.', nullable: true })
  priority?: ActivityPriority;

  @Field(() => [String], { description: 'Who takes part (names or e-mail addresses).', nullable: true })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(200)
  @MaxLength(320, { each: true })
  attendees?: string[];

  @Field(() => DateTimeISOResolver, { description: 'When it is planned.', nullable: true })
  scheduledAt?: Date;
  @Field(() => DateTimeISOResolver, { description: 'When it must be done.', nullable: true }) dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Set to now on completion when absent.' })
  completedAt?: Date;

  @Field(() => DateTimeISOResolver, {
    description: 'When the owner was reminded that the activity is due.',
    nullable: true,
  })
  dueNotifiedAt?: Date;
  @Field(() => Int, { description: 'How long it takes, in minutes.', nullable: true })
  @IsOptional()
  @Min(0)
  durationMinutes?: number;

  @Field(() => Boolean, { description: 'True once done; same as `isCompleted`.', nullable: true })
  @NotNullWhenGiven()
  @IsBoolean()
  completed?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Same as `completed`.' })
  @NotNullWhenGiven()
  @IsBoolean()
  isCompleted?: boolean;
}

@InputType({ description: 'A new activity.' })
export class CreateActivityInput extends ActivityFields {
  @Field(() => String, { description: 'What the activity is about (1 to 500 characters).' })
  @Length(1, 500)
  subject!: string;
  @Field(() => ActivityType, { description: 'What kind of contact it is.' }) type!: ActivityType;
}

@InputType({ description: 'Changes to an activity; absent fields stay as they are.' })
export class UpdateActivityInput extends ActivityFields {
  @Field(() => String, { description: 'What the activity is about (1 to 500 characters).', nullable: true })
  @NotNullWhenGiven()
  @Length(1, 500)
  subject?: string;
  @Field(() => ActivityType, { description: 'What kind of contact it is.', nullable: true })
  @NotNullWhenGiven()
  @IsEnum(ActivityType)
  type?: ActivityType;
}

export const activities = defineGroup({
  entity: Activity,
  name: 'Activity',
  plural: 'Activities',
  resource: 'ACTIVITIES',
  createInput: CreateActivityInput,
  updateInput: UpdateActivityInput,
  searchable: ['subject', 'contactName', 'contactEmail'],
  filterable: [
    ...AUDIT_FIELDS,
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
  ],
  booleanPairs: [['completed', 'isCompleted']],
  async beforeSave(ctx, activity, input, isNew) {
    if (isNew && input.ownerId === undefined) activity.ownerId = callerOf(ctx).userId;
    await checkRefs(
      ctx,
      404,
      refsIn(input, [
        ['customerId', Customer],
        ['opportunityId', Opportunity],
        ['ownerId', User],
      ]),
    );
    // completedAt records when the activity was done: stamped on completion unless the client
    // says when, and cleared when the activity is reopened.
    if (activity.completed && !activity.completedAt) activity.completedAt = new Date();
    if (!activity.completed && input.completed === false && input.completedAt === undefined)
      activity.completedAt = null;
  },
});
