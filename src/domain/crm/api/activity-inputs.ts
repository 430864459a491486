import { Field, InputType, Int } from 'type-graphql';
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
import { DateTimeISOResolver } from '../../../schema/date-time';
import { ActivityPriority, ActivityType, ACTIVITY_DOCS } from '../entities/activity';
import { NotNullWhenGiven } from './validation';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by new activities and changes.' })
class ActivityFields {
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.description })
  @IsOptional()
  @MaxLength(10000)
  description?: string;
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.location })
  @IsOptional()
  @MaxLength(500)
  location?: string;
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.outcome })
  @IsOptional()
  @MaxLength(10000)
  outcome?: string;
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.contactEmail })
  @IsOptional()
  @IsEmail()
  contactEmail?: string;
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.contactName })
  @IsOptional()
  @MaxLength(200)
  contactName?: string;
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.contactPhone })
  @IsOptional()
  @MaxLength(50)
  contactPhone?: string;
  @Field(() => String, {
    nullable: true,
    description: ACTIVITY_DOCS.customerId,
  })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, {
    nullable: true,
    description: ACTIVITY_DOCS.opportunityId,
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

  @Field(() => ActivityPriority, { nullable: true, description: ACTIVITY_DOCS.priority })
  priority?: ActivityPriority;

  @Field(() => [String], { nullable: true, description: ACTIVITY_DOCS.attendees })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(200)
  @MaxLength(320, { each: true })
  attendees?: string[];

  @Field(() => DateTimeISOResolver, { nullable: true, description: ACTIVITY_DOCS.scheduledAt })
  scheduledAt?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: ACTIVITY_DOCS.dueDate }) dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Set to now on completion when absent.' })
  completedAt?: Date;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: ACTIVITY_DOCS.dueNotifiedAt,
  })
  dueNotifiedAt?: Date;
  @Field(() => Int, { nullable: true, description: ACTIVITY_DOCS.durationMinutes })
  @IsOptional()
  @Min(0)
  durationMinutes?: number;

  @Field(() => Boolean, { nullable: true, description: ACTIVITY_DOCS.completed })
  @NotNullWhenGiven()
  @IsBoolean()
  completed?: boolean;

  @Field(() => Boolean, { nullable: true, description: ACTIVITY_DOCS.isCompleted })
  @NotNullWhenGiven()
  @IsBoolean()
  isCompleted?: boolean;
}

@InputType({ description: 'A new activity.' })
export class CreateActivityInput extends ActivityFields {
  @Field(() => String, { description: ACTIVITY_DOCS.subject })
  @Length(1, 500)
  subject!: string;
  @Field(() => ActivityType, { description: ACTIVITY_DOCS.type }) type!: ActivityType;
}

@InputType({ description: 'Changes to an activity; absent fields stay as they are.' })
export class UpdateActivityInput extends ActivityFields {
  @Field(() => String, { nullable: true, description: ACTIVITY_DOCS.subject })
  @NotNullWhenGiven()
  @Length(1, 500)
  subject?: string;
  @Field(() => ActivityType, { nullable: true, description: ACTIVITY_DOCS.type })
  @NotNullWhenGiven()
  @IsEnum(ActivityType)
  type?: ActivityType;
}
