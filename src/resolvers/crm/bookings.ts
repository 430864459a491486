import { randomBytes } from 'node:crypto';
import { Activity } from '../../entities/crm/activity';
import { Booking } from '../../entities/crm/booking';
import { ContactFormWidgetConfig } from '../../entities/crm/contact-form-widget';
import { Lead } from '../../entities/crm/lead';
import { Employee } from '../../entities/reference/employee';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { checkTimeZone } from '../../domain/access/time-zone';
import { badRequest } from '../../errors';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import { CreateBookingInput, UpdateBookingInput } from './booking-inputs';

const MINUTE = 60_000;

/**
 * endTime and duration say the same thing twice; whichever the input gives decides the other,
 * and moving a booking keeps its length.
 */
function alignTimes(booking: Booking, input: Partial<CreateBookingInput & UpdateBookingInput>): void {
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

export const bookings = defineGroup({
  entity: Booking,
  name: 'Booking',
  plural: 'Bookings',
  resource: 'BOOKINGS',
  createInput: CreateBookingInput,
  updateInput: UpdateBookingInput,
  searchable: ['firstName', 'lastName', 'email', 'companyName'],
  async beforeSave(ctx, booking, input, isNew) {
    // The token lets a visitor cancel without an account, so it must be unguessable.
    if (isNew) booking.cancellationToken = randomBytes(24).toString('base64url');
    checkTimeZone('timezone', booking.timezone);
    alignTimes(booking, input);
    await checkRefs(
      ctx,
      404,
      refsIn(input, [
        ['widgetConfigId', ContactFormWidgetConfig],
        ['leadId', Lead],
        ['activityId', Activity],
        ['assignedEmployeeId', Employee],
        ['assignedSubsidiaryId', Subsidiary],
      ]),
    );
  },
});
