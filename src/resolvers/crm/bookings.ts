import { Activity } from '../../entities/crm/activity';
import { Booking } from '../../entities/crm/booking';
import { ContactFormWidgetConfig } from '../../entities/crm/contact-form-widget';
import { Lead } from '../../entities/crm/lead';
import { Employee } from '../../entities/reference/employee';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { prepareBooking } from '../../domain/crm/booking-rules';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
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
