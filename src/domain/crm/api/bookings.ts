import { Activity } from '../entities/activity';
import { Booking } from '../entities/booking';
import { ContactFormWidgetConfig } from '../entities/contact-form-widget';
import { Lead } from '../entities/lead';
import { Employee } from '../../reference/entities/employee';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { prepareBooking } from '../booking-rules';
import { defineGroup } from '../../../family/group';
import { checkRefs, refsIn } from '../../../family/references';
import { CreateBookingInput, UpdateBookingInput } from './booking-inputs';

export const bookings = defineGroup({
  entity: Booking,
  name: 'Booking',
  plural: 'Bookings',
  resource: 'BOOKINGS',
  createInput: CreateBookingInput,
  updateInput: UpdateBookingInput,
  searchable: ['firstName', 'lastName', 'email', 'companyName'],
  async beforeSave(ctx, booking, input, isNew) {
    prepareBooking(booking, input, isNew);
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
