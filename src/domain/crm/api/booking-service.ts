import type { Context } from '../../../context';
import type { Booking } from '../entities/booking';
import { badRequest } from '../../../errors';
import { isUuid } from '../../../limits';
import { FamilyService } from '../../../family/service';
import { bookings } from './bookings';

const DAY = 86_400_000;
const service = new FamilyService(bookings);

/** Bookings of one widget whose start falls within [start 00:00Z, end 24:00Z), in calendar order. */
export async function bookingsByWidget(
  ctx: Context,
  widgetId: string,
  start: string,
  end: string,
): Promise<Booking[]> {
  // LocalDate values are YYYY-MM-DD, so text order is date order.
  if (end < start) throw badRequest(`end (${end}) must not be before start (${start})`);
  if (!isUuid(widgetId)) return [];
  const from = new Date(`${start}T00:00:00.000Z`);
  const until = new Date(Date.parse(`${end}T00:00:00.000Z`) + DAY);
  return service.list(ctx, { widgetConfigId: widgetId, startTime: { $gte: from, $lt: until } }, [
    { startTime: 'asc' },
  ]);
}
