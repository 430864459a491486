import { Field, InputType, Int } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
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
@InputType()
class ActivityFields {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(10000) description?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) location?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(10000) outcome?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() contactEmail?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) contactName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(50) contactPhone?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() customerId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() opportunityId?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A user id; the creator when a new activity leaves it out.',
  })
  @IsOptional()
  @IsUUID()
  ownerId?: string;

  @Field(() => ActivityPriority, { nullable: true }) priority?: ActivityPriority;

  @Field(() => [String], { nullable: true })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(200)
  @MaxLength(320, { each: true })
  attendees?: string[];

  @Field(() => DateTimeISOResolver, { nullable: true }) scheduledAt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Set to now on completion when absent.' })
  completedAt?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true }) dueNotifiedAt?: Date;
  @Field(() => Int, { nullable: true }) @IsOptional() @Min(0) durationMinutes?: number;

  @Field(() => Boolean, { nullable: true }) @NotNullWhenGiven() @IsBoolean() completed?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Same as `completed`.' })
  @NotNullWhenGiven()
  @IsBoolean()
  isCompleted?: boolean;
}

@InputType({ description: 'A new activity.' })
export class CreateActivityInput extends ActivityFields {
  @Field(() => String) @Length(1, 500) subject!: string;
  @Field(() => ActivityType) type!: ActivityType;
}

@InputType({ description: 'Changes to an activity; absent fields stay as they are.' })
export class UpdateActivityInput extends ActivityFields {
  @Field(() => String, { nullable: true }) @NotNullWhenGiven() @Length(1, 500) subject?: string;
  @Field(() => ActivityType, { nullable: true })
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
