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
  @Field(() => String, { nullable: true, description: 'Longer description of the activity.' })
  @IsOptional()
  @MaxLength(10000)
  description?: string;
  @Field(() => String, { nullable: true, description: 'Where it takes place.' })
  @IsOptional()
  @MaxLength(500)
  location?: string;
  @Field(() => String, { nullable: true, description: 'What came of it.' })
  @IsOptional()
  @MaxLength(10000)
  outcome?: string;
  @Field(() => String, { nullable: true, description: 'E-mail address of the person contacted.' })
  @IsOptional()
  @IsEmail()
  contactEmail?: string;
  @Field(() => String, { nullable: true, description: 'Name of the person contacted.' })
  @IsOptional()
  @MaxLength(200)
  contactName?: string;
  @Field(() => String, { nullable: true, description: 'Phone number of the person contacted.' })
  @IsOptional()
  @MaxLength(50)
  contactPhone?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Id of the customer it concerns; `customer` is that customer.',
  })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Id of the opportunity it concerns; `opportunity` is that opportunity.',
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

  @Field(() => ActivityPriority, { nullable: true, description: 'How urgent it is.' })
  priority?: ActivityPriority;

  @Field(() => [String], { nullable: true, description: 'Who takes part (names or e-mail addresses).' })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(200)
  @MaxLength(320, { each: true })
  attendees?: string[];

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it is planned.' })
  scheduledAt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it must be done.' }) dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Set to now on completion when absent.' })
  completedAt?: Date;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the owner was reminded that the activity is due.',
  })
  dueNotifiedAt?: Date;
  @Field(() => Int, { nullable: true, description: 'How long it takes, in minutes.' })
  @IsOptional()
  @Min(0)
  durationMinutes?: number;

  @Field(() => Boolean, { nullable: true, description: 'True once done; same as `isCompleted`.' })
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
  @Field(() => String, { nullable: true, description: 'What the activity is about (1 to 500 characters).' })
  @NotNullWhenGiven()
  @Length(1, 500)
  subject?: string;
  @Field(() => ActivityType, { nullable: true, description: 'What kind of contact it is.' })
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
