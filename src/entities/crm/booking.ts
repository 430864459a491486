import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

export enum BookingStatus {
  CONFIRMED = 'CONFIRMED',
  PENDING = 'PENDING',
  CANCELLED = 'CANCELLED',
  COMPLETED = 'COMPLETED',
  NO_SHOW = 'NO_SHOW',
}
registerEnumType(BookingStatus, {
  name: 'BookingStatus',
  description: 'State of a booking.',
  valuesConfig: {
    CONFIRMED: { description: 'Confirmed.' },
    PENDING: { description: 'Awaiting confirmation.' },
    CANCELLED: { description: 'Cancelled.' },
    COMPLETED: { description: 'Took place.' },
    NO_SHOW: { description: 'The visitor did not come.' },
  },
});

@Entity({ tableName: 'booking' })
// The widget calendar asks for one widget's bookings in a time window.
@Index({
  name: 'booking_tenant_widget_config_id_start_time_idx',
  properties: ['tenantId', 'widgetConfigId', 'startTime'],
})
@TenantIndexes(
  'booking',
  'status',
  'startTime',
  'endTime',
  'firstName',
  'lastName',
  'email',
  'companyName',
  'city',
  'postalCode',
  'leadId',
  'activityId',
  'assignedEmployeeId',
  'assignedSubsidiaryId',
)
@ObjectType({ description: 'An appointment booked through a contact-form widget.' })
export class Booking extends Audited {
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The contact-form widget it was booked through.' })
  widgetConfigId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the lead the booking belongs to.' })
  leadId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the activity that records the appointment.' })
  activityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the employee who takes the appointment.' })
  assignedEmployeeId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary where it takes place.' })
  assignedSubsidiaryId?: string | null;

  /** An id in an external calendar, so not necessarily a UUID. */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The id of the event in an external calendar.' })
  calendarEventId?: string | null;

  @Property({ type: 'text' })
  @Field(() => String, { description: 'A secret that lets the visitor cancel; made by the service.' })
  cancellationToken!: string;

  @Enum({ items: () => BookingStatus })
  @Field(() => BookingStatus, { description: 'State of the booking.' })
  status: BookingStatus = BookingStatus.CONFIRMED;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver, { description: 'When the appointment starts.' })
  startTime!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    description:
      'When it ends; derived from `startTime` and `duration` when absent (and the other way round).',
    nullable: true,
  })
  endTime?: Date | null;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: 'Length in minutes.' })
  duration?: number | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's time zone (IANA name)." })
  timezone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's first name." })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's last name." })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's company." })
  companyName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's e-mail address." })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's phone number." })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's street." })
  street?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's house number." })
  houseNumber?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's postal code." })
  postalCode?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The visitor's city." })
  city?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the visitor wrote.' })
  message?: string | null;
}
