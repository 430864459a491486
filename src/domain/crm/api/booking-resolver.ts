import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import type { Context } from '../../../context';
import { Booking } from '../entities/booking';
import { can, Requires } from '../../../permissions/rules';
import { bookingsByWidget } from './booking-service';

@Resolver(() => Booking)
export class BookingResolver {
  @Requires(can('READ', 'BOOKINGS'))
  @Query(() => [Booking], {
    description:
      'The bookings of a widget that start from `start` 00:00 UTC up to the end of `end` (UTC), earliest first.',
  })
  bookingsByWidget(
    @Arg('widgetId', () => ID, { description: 'Id of the contact-form widget.' }) widgetId: string,
    @Arg('start', () => LocalDateResolver, { description: 'First day (YYYY-MM-DD).' }) start: string,
    @Arg('end', () => LocalDateResolver, {
      description: 'Last day (YYYY-MM-DD), not before start; bookings starting before the day after it.',
    })
    end: string,
    @Ctx() ctx: Context,
  ): Promise<Booking[]> {
    return bookingsByWidget(ctx, widgetId, start, end);
  }
}
