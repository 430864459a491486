import { familyRoutes } from '../../../rest/family-routes';
import { body, type RestRoute } from '../../../rest/route';
import { activities } from './activities';
import { bookings } from './bookings';
import { contactFormWidgets } from './contact-form-widgets';
import { inbox } from './inbox';
import { sentMails } from './sent-mails';

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

  ...familyRoutes(sentMails, '/sent-mails', ['S1', 'S2', 'S3', 'S5', 'S10', 'bulk-delete']),
];
