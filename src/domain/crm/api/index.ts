import type { GroupDef } from '../../../family/group';
import { activities } from './activities';
import { ActivityResolver } from './activity-resolver';
import { BookingResolver } from './booking-resolver';
import { bookings } from './bookings';
import { ContactFormWidgetResolver } from './contact-form-widget-resolver';
import { contactFormWidgets } from './contact-form-widgets';
import { inbox } from './inbox';
import { InboxResolver } from './inbox-resolver';
import { LeadResolver } from './lead-resolver';
import { leads } from './leads';
import { sentMails } from './sent-mails';

/** Groups with the standard family, and other resolvers, of this domain. */
export const crmGroups: GroupDef<any, any, any>[] = [
  contactFormWidgets,
  activities,
  bookings,
  leads,
  inbox,
  sentMails,
];
export const crmResolvers: Function[] = [
  ContactFormWidgetResolver,
  ActivityResolver,
  BookingResolver,
  LeadResolver,
  InboxResolver,
];
