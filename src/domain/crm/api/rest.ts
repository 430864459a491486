import { familyRoutes } from '../../../rest/family-routes';
import { body, fromRequest, type RestRoute } from '../../../rest/route';
import { activities } from './activities';
import { bookings } from './bookings';
import { contactFormWidgets } from './contact-form-widgets';
import { inbox } from './inbox';
import { sentMails } from './sent-mails';

/**
 * The raw message of POST /communications/inbox/messages, as base64: a message/rfc822 body
 * arrives as its bytes (src/app.ts reads it so), a JSON body is the base64 as a JSON string.
 */
const rawMessageOf = (req: { body?: unknown }): unknown =>
  Buffer.isBuffer(req.body) ? req.body.toString('base64') : req.body;

const ALL_SEARCH = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9'] as const;

export const crmRoutes: RestRoute[] = [
  ...familyRoutes(contactFormWidgets, '/crm/contact-form-widgets', ['create', ...ALL_SEARCH]),
  {
    method: 'GET',
    path: '/crm/contact-form-widgets/active',
    field: 'activeContactFormWidgets',
    code: 'custom',
    summary: 'The active contact-form widgets',
  },

  ...familyRoutes(activities, '/crm/activities', ['create', 'S6', 'S7', 'S8', 'S9']),
  {
    method: 'GET',
    path: '/crm/activities/by-customer/{customerId}',
    field: 'activitiesByCustomer',
    code: 'custom',
    summary: 'The activities of a customer',
  },
  {
    method: 'GET',
    path: '/crm/activities/by-opportunity/{opportunityId}',
    field: 'activitiesByOpportunity',
    code: 'custom',
    summary: 'The activities of an opportunity',
  },
  {
    method: 'GET',
    path: '/crm/activities/by-owner/{ownerId}',
    field: 'activitiesByOwner',
    code: 'custom',
    summary: 'The activities a user owns',
  },
  {
    method: 'GET',
    path: '/crm/activities/by-type/{type}',
    field: 'activitiesByType',
    code: 'custom',
    summary: 'The activities of one type',
  },
  {
    method: 'GET',
    path: '/crm/activities/completed',
    field: 'completedActivities',
    code: 'custom',
    summary: 'The completed activities',
  },

  ...familyRoutes(bookings, '/crm/bookings', ALL_SEARCH),
  {
    method: 'GET',
    path: '/crm/bookings/by-widget/{widgetId}',
    field: 'bookingsByWidget',
    code: 'custom',
    summary: 'The bookings of a widget starting between two dates (query start and end, YYYY-MM-DD)',
  },

  {
    method: 'PATCH',
    path: '/crm/leads/{id}/status',
    field: 'updateLeadStatus',
    args: { input: body() },
    code: 'custom',
    summary: 'Move a lead to a status',
  },
  {
    method: 'PATCH',
    path: '/crm/leads/{id}/subsidiary',
    field: 'updateLeadSubsidiary',
    args: { input: body() },
    code: 'custom',
    summary: 'Move a lead to a subsidiary, or to none ({})',
  },

  ...familyRoutes(inbox, '/communications/inbox', [...ALL_SEARCH, 'S10'], { s1IdsOptional: true }),
  {
    method: 'GET',
    path: '/communications/inbox/unread-count',
    field: 'inboxUnreadCount',
    code: 'custom',
    summary: 'Inbox counters: unread (NEW), total, and one per status',
  },
  {
    method: 'POST',
    path: '/communications/inbox/messages',
    field: 'receiveInboundMessage',
    args: { message: fromRequest(rawMessageOf, 'body') },
    rawMessageBody: true,
    status: 201,
    location: (r: { id: string }) => `/communications/inbox/find/${r.id}`,
    code: 'custom',
    extension: true,
    summary:
      'Store a raw RFC 5322 message (the message as a message/rfc822 body, or its base64 as a JSON string; at most 1 MiB): threaded, linked to its sender, attachments stored as files; once per Message-ID',
  },
  {
    method: 'POST',
    path: '/communications/inbox/{id}/reply',
    field: 'replyToInboundEmail',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary:
      'Answer an inbound e-mail through the outbox (In-Reply-To set); writes a SentMail, the e-mail becomes REPLIED',
  },
  {
    method: 'GET',
    path: '/communications/mailboxes',
    field: 'mailboxes',
    code: 'custom',
    extension: true,
    summary: 'The IMAP mailboxes read into the inbox (never their passwords)',
  },
  {
    method: 'POST',
    path: '/communications/mailboxes',
    field: 'createMailbox',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary:
      'Configure an IMAP mailbox (password stored encrypted, write-only); 409 without MAILBOX_SECRET_KEY',
  },
  {
    method: 'PATCH',
    path: '/communications/mailboxes/{id}',
    field: 'updateMailbox',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary: 'Change an IMAP mailbox; absent fields stay as they are',
  },
  {
    method: 'DELETE',
    path: '/communications/mailboxes/{id}',
    field: 'deleteMailbox',
    status: 204,
    code: 'custom',
    extension: true,
    summary: 'Remove an IMAP mailbox; the e-mails read from it stay',
  },

  ...familyRoutes(sentMails, '/sent-mails', ['S1', 'S2', 'S3', 'S5', 'S10', 'bulk-delete']),
];
