/** Entities of CRM and communications: widgets, activities, bookings, leads, inbox, sent mails. */
export const crmEntities: Function[] = [];
