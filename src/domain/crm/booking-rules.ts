import { randomBytes } from 'node:crypto';
import { badRequest } from '../../errors';
import { checkTimeZone } from '../access/time-zone';
import type { Booking } from './entities/booking';
import type { CreateBookingInput, UpdateBookingInput } from './api/booking-inputs';

type BookingInput = Partial<CreateBookingInput & UpdateBookingInput>;

/**
 * A booking as it is stored: a new one gets its cancellation token (it lets a visitor cancel
 * without an account, so it must be unguessable), its time zone must be one, and its times agree.
 */
export function prepareBooking(booking: Booking, input: BookingInput, isNew: boolean): void {
  if (isNew) booking.cancellationToken = randomBytes(24).toString('base64url');
  checkTimeZone('timezone', booking.timezone);
  alignTimes(booking, input);
}

const MINUTE = 60_000;

/**
 * endTime and duration say the same thing twice; whichever the input gives decides the other,
 * and moving a booking keeps its length.
 */
function alignTimes(booking: Booking, input: BookingInput): void {
  if (booking.startTime == null) throw badRequest('startTime: a booking needs a start time');
  const start = booking.startTime.getTime();
  if (input.endTime !== undefined) {
    const derived = booking.endTime ? Math.round((booking.endTime.getTime() - start) / MINUTE) : null;
    if (input.duration != null && derived != null && derived !== input.duration)
      throw badRequest(`duration: ${input.duration} minutes does not match endTime (${derived} minutes)`);
    booking.duration = derived ?? input.duration ?? null;
    if (!booking.endTime && booking.duration != null)
      booking.endTime = new Date(start + booking.duration * MINUTE);
  } else if (input.duration !== undefined || input.startTime !== undefined) {
    if (booking.duration != null) booking.endTime = new Date(start + booking.duration * MINUTE);
    else if (input.duration === null) booking.endTime = null;
  }
  if (booking.endTime && booking.endTime.getTime() < start)
    throw badRequest('endTime must not be before startTime');
}
