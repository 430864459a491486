import type { EntityManager } from '@mikro-orm/core';
import type { ScheduledJob } from '../../jobs/job';
import { activeEventSettings } from '../../events/settings';
import { queueBookingReminder } from './booking-mail';
import { claimEnded, claimRemindable } from './booking-repository';
import { Booking, BookingStatus } from './entities/booking';

/** How long before a meeting its visitor is reminded of it. */
export const REMINDER_LEAD_MS = 24 * 3_600_000;
/** How many bookings one run reminds, or completes, at most; the next run takes the rest. */
export const BOOKINGS_PER_RUN = 500;
/** Who the job writes as (audit fields, history, events, the reminder's delivery). */
export const BOOKINGS_ACTOR = 'bookings';
/** The API's base path, as the public routes' links name it (the invitation link's too). */
const PUBLIC_API = '/api/v1';
/** A booking with neither end time nor duration lasts this long (the public booking slot). */
const DEFAULT_MINUTES = 30;

/**
 * Whether a CONFIRMED booking's visitor is due the reminder at `now`: the meeting starts within
 * REMINDER_LEAD_MS, it has not been reminded, and it was booked before its reminder time: a visitor
 * who booked closer to the meeting than that has the confirmation fresh and gets no second mail.
 */
export function reminderDue(
  booking: { status: BookingStatus; startTime: Date; remindedAt?: Date | null; created?: Date | null },
  now: Date,
): boolean {
  const remindFrom = booking.startTime.getTime() - REMINDER_LEAD_MS;
  return (
    booking.status === BookingStatus.CONFIRMED &&
    booking.remindedAt == null &&
    booking.startTime.getTime() > now.getTime() &&
    remindFrom <= now.getTime() &&
    (booking.created == null || booking.created.getTime() <= remindFrom)
  );
}

/** When a booking ends: its end time, else its start and duration, else a slot after its start. */
export function bookingEnd(booking: {
  startTime: Date;
  endTime?: Date | null;
  duration?: number | null;
}): Date {
  return (
    booking.endTime ?? new Date(booking.startTime.getTime() + (booking.duration ?? DEFAULT_MINUTES) * 60_000)
  );
}

/**
 * The bookings of `ids`, claimed by one of booking-repository.ts's statements: locked for this
 * transaction, skipping those another process holds. The SQL says the rule again (reminderDue,
 * bookingEnd) so that only due rows are read and locked; the loaded rows are checked with the
 * functions.
 */
async function loadClaimed(em: EntityManager, tenantId: string, ids: string[]): Promise<Booking[]> {
  if (ids.length === 0) return [];
  return em.find(Booking, { tenantId, id: { $in: ids } });
}

/**
 * Reminds the visitor of each CONFIRMED booking of `tenantId` whose meeting starts within
 * REMINDER_LEAD_MS of `now` (reminderDue): stamps `remindedAt`, once (that change also tells
 * the assigned employee's user, scope `activity.due`), and queues the reminder e-mail with the
 * cancel link through the outbox, in `em`'s transaction. Answers how many were reminded.
 */
export async function remindUpcomingBookings(
  em: EntityManager,
  tenantId: string,
  now: Date,
  settings: { apiUrl: string } = { apiUrl: `${activeEventSettings().publicUrl}${PUBLIC_API}` },
): Promise<number> {
  const claimed = await loadClaimed(
    em,
    tenantId,
    await claimRemindable(em, tenantId, now, REMINDER_LEAD_MS / 60_000, BOOKINGS_PER_RUN),
  );
  const due = claimed.filter((b) => reminderDue(b, now));
  for (const booking of due) {
    booking.remindedAt = now;
    // The stamp's flush writes the event the reminder's delivery reports.
    await em.flush();
    await queueBookingReminder(em, booking, settings, BOOKINGS_ACTOR);
  }
  return due.length;
}

/**
 * Moves each CONFIRMED booking of `tenantId` that ended by `now` (bookingEnd) to COMPLETED, with
 * its `booking.status_changed` event like any change of status. A booking staff marked NO_SHOW,
 * a CANCELLED one, and a PENDING one that was never confirmed, stay as they are.
 */
export async function completePastBookings(em: EntityManager, tenantId: string, now: Date): Promise<number> {
  const claimed = await loadClaimed(
    em,
    tenantId,
    await claimEnded(em, tenantId, now, DEFAULT_MINUTES, BOOKINGS_PER_RUN),
  );
  const past = claimed.filter((b) => bookingEnd(b).getTime() <= now.getTime());
  for (const booking of past) booking.status = BookingStatus.COMPLETED;
  await em.flush();
  return past.length;
}

/**
 * The bookings' time-based work as a scheduled job: every 15 minutes per tenant with the CRM
 * module on, reminders of meetings within a day, then bookings that ended become COMPLETED;
 * the items are the reminders sent plus the bookings completed.
 */
export const bookingsJob: ScheduledJob = {
  name: 'crm.bookings',
  description:
    'reminds visitors of meetings within 24 h (e-mail with the cancel link) and moves CONFIRMED bookings that ended to COMPLETED',
  schedule: { every: 15 * 60_000 },
  perTenant: true,
  module: 'crm',
  async run({ em, tenantId, now }) {
    return (
      (await remindUpcomingBookings(em, tenantId!, now)) + (await completePastBookings(em, tenantId!, now))
    );
  },
};
