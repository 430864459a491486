import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

export enum BookingStatus {
  CONFIRMED = 'CONFIRMED',
  PENDING = 'PENDING',
  CANCELLED = 'CANCELLED',
  COMPLETED = 'COMPLETED',
  NO_SHOW = 'NO_SHOW',
}
registerEnumType(BookingStatus, { name: 'BookingStatus' });

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
  @Field(() => String, { nullable: true })
  leadId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  activityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  assignedEmployeeId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  assignedSubsidiaryId?: string | null;

  /** An id in an external calendar, so not necessarily a UUID. */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The id of the event in an external calendar.' })
  calendarEventId?: string | null;

  @Property({ type: 'text' })
  @Field(() => String, { description: 'A secret that lets the visitor cancel; made by the service.' })
  cancellationToken!: string;

  @Enum({ items: () => BookingStatus })
  @Field(() => BookingStatus)
  status: BookingStatus = BookingStatus.CONFIRMED;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver)
  startTime!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  endTime?: Date | null;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: 'Length in minutes.' })
  duration?: number | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  timezone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  companyName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  street?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  houseNumber?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  postalCode?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  city?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  message?: string | null;
}
