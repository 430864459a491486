import type { EntityManager } from '@mikro-orm/core';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { Tenant } from '../../entities/tenant';
import { attachmentOf, queueMail, reportedEvents } from '../../events/outbound-mail';
import type { Booking } from './entities/booking';

/** The delivery's event type of a booking's confirmation. */
export const BOOKING_CONFIRMATION_EVENT = 'booking.confirmation_mail';

/**
 * The invitation of a booking as RFC 5545 text (METHOD:REQUEST, so calendar programs offer to add
 * it), written by ical-generator rather than by hand: escaping, line folding and UTC times are its
 * business. The UID is the booking's id, so a later update of the same booking replaces the entry.
 */
export function bookingInvitation(booking: Booking, organizer: { name: string; email: string }): string {
  const calendar = ical({ name: organizer.name, method: ICalCalendarMethod.REQUEST });
  calendar.createEvent({
    id: booking.id,
    start: booking.startTime,
    end: booking.endTime!,
    summary: `Appointment with ${organizer.name}`,
    organizer,
    description: booking.message ?? undefined,
  });
  return calendar.toString();
}

/**
 * The visitor's cancel link (`apiUrl`: the service's public address and API base). It names the tenant and the booking's token; the service cancels only
 * on a POST with that token (a page behind the link submits it as a form), so a mail scanner that
 * follows links cancels nothing.
 */
export const cancelLink = (apiUrl: string, booking: Booking): string =>
  `${apiUrl}/public/bookings/cancel?tenant=${encodeURIComponent(booking.tenantId)}&token=${encodeURIComponent(booking.cancellationToken)}`;

/** The delivery's event type of a booking's reminder before the meeting. */
export const BOOKING_REMINDER_EVENT = 'booking.reminder_mail';

/** When a booking starts, as its mails say it: `2027-01-04 10:00` (UTC). */
export const mailTime = (start: Date): string => start.toISOString().replace('T', ' ').slice(0, 16);

/**
 * Queues the confirmation of a public booking to its visitor through the outbox's e-mail
 * deliveries, in `em`'s transaction: it is sent only if the booking commits. It carries the
 * invitation (`booking.ics`) and the cancel link. The flush that wrote the booking wrote its
 * `booking.created` event, which the delivery reports.
 */
export async function queueBookingConfirmation(
  em: EntityManager,
  booking: Booking,
  settings: { apiUrl: string; mailFrom: string },
): Promise<string> {
  const tenant = await em.findOneOrFail(Tenant, { id: booking.tenantId });
  const event = (await reportedEvents(em, booking.tenantId, [booking.id], 'booking.created')).get(booking.id);
  const ics = bookingInvitation(booking, { name: tenant.name, email: settings.mailFrom });
  const when = mailTime(booking.startTime);
  return queueMail(em, {
    tenantId: booking.tenantId,
    eventId: event ?? booking.id,
    eventType: BOOKING_CONFIRMATION_EVENT,
    by: 'public-form',
    mail: {
      to: booking.email!,
      subject: `Your appointment with ${tenant.name} on ${when} UTC`,
      text:
        `Your appointment with ${tenant.name} is booked for ${when} UTC; the invitation is attached.\n\n` +
        `To cancel it, open: ${cancelLink(settings.apiUrl, booking)}\n`,
      attachments: [attachmentOf('booking.ics', 'text/calendar; method=REQUEST', Buffer.from(ics, 'utf8'))],
    },
  });
}

/**
 * Queues the reminder of a coming meeting to the booking's visitor, like the confirmation (the
 * outbox, in `em`'s transaction), with the cancel link: the visitor who cannot come frees the
 * slot. It reports the booking's latest event, the change that stamped `remindedAt`.
 */
export async function queueBookingReminder(
  em: EntityManager,
  booking: Booking,
  settings: { apiUrl: string },
  by: string,
): Promise<string> {
  const tenant = await em.findOneOrFail(Tenant, { id: booking.tenantId });
  const event = (await reportedEvents(em, booking.tenantId, [booking.id])).get(booking.id);
  const when = mailTime(booking.startTime);
  return queueMail(em, {
    tenantId: booking.tenantId,
    eventId: event ?? booking.id,
    eventType: BOOKING_REMINDER_EVENT,
    by,
    mail: {
      to: booking.email!,
      subject: `Reminder: your appointment with ${tenant.name} on ${when} UTC`,
      text:
        `This is a reminder of your appointment with ${tenant.name} on ${when} UTC.\n\n` +
        `If you cannot come, cancel it here: ${cancelLink(settings.apiUrl, booking)}\n`,
    },
  });
}
