import { Entity, Index } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import {
  DateTimeColumn,
  EnumColumn,
  IntColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

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

/** What Booking fields mean, shared with the inputs that set them. */
export const BOOKING_DOCS = {
  widgetConfigId: 'The contact-form widget it was booked through.',
  leadId: 'Id of the lead the booking belongs to.',
  activityId: 'Id of the activity that records the appointment.',
  assignedEmployeeId: 'Id of the employee who takes the appointment.',
  assignedSubsidiaryId: 'Id of the subsidiary where it takes place.',
  calendarEventId: 'The id of the event in an external calendar.',
  firstName: "The visitor's first name.",
  lastName: "The visitor's last name.",
  companyName: "The visitor's company.",
  email: "The visitor's e-mail address.",
  phone: "The visitor's phone number.",
  street: "The visitor's street.",
  houseNumber: "The visitor's house number.",
  postalCode: "The visitor's postal code.",
  city: "The visitor's city.",
  message: 'What the visitor wrote.',
  startTime: 'When the appointment starts.',
} as const;

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
  @UuidColumn({ description: BOOKING_DOCS.widgetConfigId })
  widgetConfigId?: string | null;

  @UuidColumn({ description: BOOKING_DOCS.leadId })
  leadId?: string | null;

  @UuidColumn({ description: BOOKING_DOCS.activityId })
  activityId?: string | null;

  @UuidColumn({ description: BOOKING_DOCS.assignedEmployeeId })
  assignedEmployeeId?: string | null;

  @UuidColumn({ description: BOOKING_DOCS.assignedSubsidiaryId })
  assignedSubsidiaryId?: string | null;

  /** An id in an external calendar, so not necessarily a UUID. */
  @TextColumn({ description: BOOKING_DOCS.calendarEventId })
  calendarEventId?: string | null;

  @TextColumn({ nullable: false, description: 'A secret that lets the visitor cancel; made by the service.' })
  cancellationToken!: string;

  @EnumColumn(() => BookingStatus, { nullable: false, description: 'State of the booking.' })
  status: BookingStatus = BookingStatus.CONFIRMED;

  @DateTimeColumn({ nullable: false, description: BOOKING_DOCS.startTime })
  startTime!: Date;

  @DateTimeColumn({
    description:
      'When it ends; derived from `startTime` and `duration` when absent (and the other way round).',
  })
  endTime?: Date | null;

  @IntColumn({ description: 'Length in minutes.' })
  duration?: number | null;

  @TextColumn({ description: "The visitor's time zone (IANA name)." })
  timezone?: string | null;

  @TextColumn({ description: BOOKING_DOCS.firstName })
  firstName?: string | null;

  @TextColumn({ description: BOOKING_DOCS.lastName })
  lastName?: string | null;

  @TextColumn({ description: BOOKING_DOCS.companyName })
  companyName?: string | null;

  @TextColumn({ description: BOOKING_DOCS.email })
  email?: string | null;

  @TextColumn({ description: BOOKING_DOCS.phone })
  phone?: string | null;

  @TextColumn({ description: BOOKING_DOCS.street })
  street?: string | null;

  @TextColumn({ description: BOOKING_DOCS.houseNumber })
  houseNumber?: string | null;

  @TextColumn({ description: BOOKING_DOCS.postalCode })
  postalCode?: string | null;

  @TextColumn({ description: BOOKING_DOCS.city })
  city?: string | null;

  @TextColumn({ description: BOOKING_DOCS.message })
  message?: string | null;

  @DateTimeColumn({
    description: 'When the visitor was sent the reminder of the meeting; set once, by the service.',
  })
  remindedAt?: Date | null;
}
