import { Field, InputType, Int } from 'type-graphql';
import { IsDate, IsEmail, IsEnum, IsOptional, IsUUID, MaxLength, Min } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { BookingStatus, BOOKING_DOCS } from '../entities/booking';
import { NotNullWhenGiven } from './validation';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by new bookings and changes.' })
class BookingFields {
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.widgetConfigId })
  @IsOptional()
  @IsUUID()
  widgetConfigId?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.leadId })
  @IsOptional()
  @IsUUID()
  leadId?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.activityId })
  @IsOptional()
  @IsUUID()
  activityId?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.assignedEmployeeId })
  @IsOptional()
  @IsUUID()
  assignedEmployeeId?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.assignedSubsidiaryId })
  @IsOptional()
  @IsUUID()
  assignedSubsidiaryId?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.calendarEventId })
  @IsOptional()
  @MaxLength(500)
  calendarEventId?: string;

  @Field(() => BookingStatus, { nullable: true, description: 'CONFIRMED when a new booking leaves it out.' })
  @NotNullWhenGiven()
  @IsEnum(BookingStatus)
  status?: BookingStatus;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'startTime + duration when absent.' })
  endTime?: Date;

  @Field(() => Int, { nullable: true, description: 'Minutes; endTime - startTime when absent.' })
  @IsOptional()
  @Min(0)
  duration?: number;

  @Field(() => String, { nullable: true, description: 'An IANA time zone: Europe/Amsterdam.' })
  @IsOptional()
  @MaxLength(100)
  timezone?: string;

  @Field(() => String, { nullable: true, description: BOOKING_DOCS.firstName })
  @IsOptional()
  @MaxLength(200)
  firstName?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.lastName })
  @IsOptional()
  @MaxLength(200)
  lastName?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.companyName })
  @IsOptional()
  @MaxLength(300)
  companyName?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.email })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.phone })
  @IsOptional()
  @MaxLength(50)
  phone?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.street })
  @IsOptional()
  @MaxLength(300)
  street?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.houseNumber })
  @IsOptional()
  @MaxLength(20)
  houseNumber?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.postalCode })
  @IsOptional()
  @MaxLength(20)
  postalCode?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.city })
  @IsOptional()
  @MaxLength(200)
  city?: string;
  @Field(() => String, { nullable: true, description: BOOKING_DOCS.message })
  @IsOptional()
  @MaxLength(10000)
  message?: string;
}

@InputType({ description: 'A new booking; the service makes its cancellationToken.' })
export class CreateBookingInput extends BookingFields {
  @Field(() => DateTimeISOResolver, { description: BOOKING_DOCS.startTime }) startTime!: Date;
}

@InputType({ description: 'Changes to a booking; absent fields stay as they are.' })
export class UpdateBookingInput extends BookingFields {
  @Field(() => DateTimeISOResolver, { nullable: true, description: BOOKING_DOCS.startTime })
  @NotNullWhenGiven()
  @IsDate()
  startTime?: Date;
}
