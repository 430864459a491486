import type { DomainModule } from '../../modules';
import { crmEntities } from './entities';
import { crmRoutes } from './api/rest';
import { activities } from './api/activities';
import { ActivityResolver } from './api/activity-resolver';
import { BookingResolver } from './api/booking-resolver';
import { bookings } from './api/bookings';
import { ContactFormWidgetResolver } from './api/contact-form-widget-resolver';
import { contactFormWidgets } from './api/contact-form-widgets';
import { inbox } from './api/inbox';
import { InboxResolver } from './api/inbox-resolver';
import { LeadResolver } from './api/lead-resolver';
import { leads } from './api/leads';
import { sentMails } from './api/sent-mails';
import { bookingsJob } from './booking-jobs';
import { dueRemindersJob } from './reminders';
import { mailboxesJob } from './mailbox-poll';
import { MailboxResolver } from './api/mailbox-resolver';

/** CRM and communications: contact forms, activities, bookings, leads, the inbox and sent mails. */
export const crmModule: DomainModule = {
  entities: crmEntities,
  groups: [contactFormWidgets, activities, bookings, leads, inbox, sentMails],
  resolvers: [
    ContactFormWidgetResolver,
    ActivityResolver,
    BookingResolver,
    LeadResolver,
    InboxResolver,
    MailboxResolver,
  ],
  routes: crmRoutes,
  scheduled: [dueRemindersJob, mailboxesJob, bookingsJob],
};
