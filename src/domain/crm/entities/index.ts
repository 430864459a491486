import { Activity } from './activity';
import { Booking } from './booking';
import { ContactFormWidgetConfig } from './contact-form-widget';
import { InboundEmail } from './inbound-email';
import { Lead } from './lead';
import { Mailbox } from './mailbox';
import { SentMail } from './sent-mail';

/** Entities of CRM and communications: widgets, activities, bookings, leads, inbox, sent mails, mailboxes. */
export const crmEntities: Function[] = [
  ContactFormWidgetConfig,
  Activity,
  Booking,
  Lead,
  InboundEmail,
  SentMail,
  Mailbox,
];
