import { NotificationType } from './entities/notification';
import type { Recipients } from './recipients';

/** A record's fields before a change (undefined for a creation) or after it. */
export type RecordState = Record<string, unknown>;

/** What a notification says: its title and text, and where opening it leads. */
export interface NotificationMessage {
  title: string;
  body?: string;
  actionUrl?: string;
}

/**
 * How one scope of the catalog (scopes.ts) is produced: the change of a record that makes it
 * happen, judged from the record before (undefined for a creation) and after the flush as
 * src/events/domain-events.ts judges domain events; the users it concerns; and what it says.
 * Entities are named as MikroORM names them (their class), so no module's code is loaded here.
 */
export interface NotificationProducer {
  scope: string;
  entity: string;
  /** What makes it happen, in words: docs/events.md lists these. */
  when: string;
  type?: NotificationType;
  happened(before: RecordState | undefined, after: RecordState): boolean;
  recipients(users: Recipients, after: RecordState, before: RecordState | undefined): Promise<string[]>;
  message(after: RecordState): NotificationMessage;
  /**
   * Whether the user who made the change hears of it too. A change someone makes tells others
   * (the actor knows what they did); a condition the service reports (due, overdue, paid, low
   * stock) tells everyone it concerns, the actor included.
   */
  notifyActor?: boolean;
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** Moved into one of `statuses` (on a creation with one of them too). */
const becomes =
  (...statuses: string[]) =>
  (before: RecordState | undefined, after: RecordState): boolean =>
    statuses.includes(str(after.status)) && !statuses.includes(str(before?.status));

/** `status` changed on an existing record. */
const statusChanged = (before: RecordState | undefined, after: RecordState): boolean =>
  before !== undefined && str(before.status) !== str(after.status);

/** A stamp (`dueNotifiedAt`) set where it was empty: the reminder it records is due now. */
const stamped =
  (field: string) =>
  (before: RecordState | undefined, after: RecordState): boolean =>
    after[field] != null && before?.[field] == null;

/** A stamp set to a new time: one reminder per due date (a lead's next action is due again later). */
const restamped =
  (field: string) =>
  (before: RecordState | undefined, after: RecordState): boolean =>
    after[field] != null && timeOf(after[field]) !== timeOf(before?.[field]);

const timeOf = (v: unknown): number | null => (v == null ? null : new Date(v as string).getTime());

/** A list field's values as text (a loaded copy may hold PostgreSQL's `{a,b}` form). */
const listOf = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.map(str);
  if (typeof v === 'string' && v.startsWith('{') && v.endsWith('}'))
    return v.length > 2
      ? v
          .slice(1, -1)
          .split(',')
          .map((s) => s.replace(/^"|"$/g, ''))
      : [];
  return [];
};

/** The ids of a list field that were not in it before (all of them on a creation). */
const added = (field: string, before: RecordState | undefined, after: RecordState): string[] => {
  const old = new Set(listOf(before?.[field]));
  return listOf(after[field]).filter((id) => !old.has(id));
};

/** A single id field that now names someone other than before. */
const reassigned =
  (field: string) =>
  (before: RecordState | undefined, after: RecordState): boolean =>
    after[field] != null && str(after[field]) !== str(before?.[field]);

const nameOf = (r: RecordState): string =>
  [r.firstName, r.lastName].filter(Boolean).join(' ') || str(r.companyName) || str(r.email) || str(r.id);

const ACCESS_FIELDS = ['roles', 'hasFullAccess', 'subsidiaryAccess', 'projectAccess'] as const;

const sameList = (a: unknown, b: unknown): boolean =>
  JSON.stringify(listOf(a).sort()) === JSON.stringify(listOf(b).sort());

/**
 * Every producer, at least one per scope of the catalog (test/notifications/scopes-produced.test.ts
 * fails for a scope without one). Records whose status another part of the service sets by
 * itself (an invoice becoming OVERDUE or PAID, an inventory LOW_STOCK) are produced on the
 * change whoever makes it, a client or the service.
 */
export const NOTIFICATION_PRODUCERS: readonly NotificationProducer[] = [
  {
    scope: 'invoice.overdue',
    entity: 'Invoice',
    when: 'a sales invoice becomes OVERDUE; to the user who created it',
    type: NotificationType.WARNING,
    notifyActor: true,
    happened: becomes('OVERDUE'),
    recipients: (users, after) => users.byEmail(str(after.createdBy)),
    message: (r) => ({
      title: `Invoice ${str(r.invoiceNumber) || str(r.id)} is overdue`,
      body: r.dueDate ? `It was due on ${isoDay(r.dueDate)}.` : undefined,
      actionUrl: `/invoices/${str(r.id)}`,
    }),
  },
  {
    scope: 'invoice.paid',
    entity: 'Invoice',
    when: 'a sales invoice becomes PAID; to the user who created it',
    notifyActor: true,
    happened: becomes('PAID'),
    recipients: (users, after) => users.byEmail(str(after.createdBy)),
    message: (r) => ({
      title: `Invoice ${str(r.invoiceNumber) || str(r.id)} has been paid`,
      actionUrl: `/invoices/${str(r.id)}`,
    }),
  },
  {
    scope: 'ap-invoice.due',
    entity: 'ApInvoice',
    when: "an AP invoice's `dueNotifiedAt` is stamped (the due-date reminders, or a client); to the user who created it",
    type: NotificationType.TASK,
    notifyActor: true,
    happened: stamped('dueNotifiedAt'),
    recipients: (users, after) => users.byEmail(str(after.createdBy)),
    message: (r) => ({
      title: `Supplier invoice ${str(r.invoiceNumber) || str(r.id)} is due`,
      body: r.dueDate ? `It is due on ${isoDay(r.dueDate)}.` : undefined,
      actionUrl: `/ap-invoices/${str(r.id)}`,
    }),
  },
  {
    scope: 'stock.low',
    entity: 'StockInventory',
    when: 'a stock inventory becomes LOW_STOCK or OUT_OF_STOCK from IN_STOCK (or is created so); to the users holding UPDATE_INVENTORY',
    type: NotificationType.WARNING,
    notifyActor: true,
    happened: (before, after) =>
      ['LOW_STOCK', 'OUT_OF_STOCK'].includes(str(after.status)) &&
      (before === undefined || str(before.status) === 'IN_STOCK'),
    recipients: (users) => users.holding('UPDATE_INVENTORY'),
    message: (r) => ({
      title: r.status === 'OUT_OF_STOCK' ? 'Out of stock' : 'Stock is low',
      body: `Product ${str(r.productId)} at site ${str(r.siteId)}: ${str(r.availableQuantity)} available.`,
      actionUrl: `/inventory/${str(r.id)}`,
    }),
  },
  {
    scope: 'stock-transfer.status',
    entity: 'StockTransfer',
    when: "a stock transfer's status changes; to the user who created it",
    happened: statusChanged,
    recipients: (users, after) => users.byEmail(str(after.createdBy)),
    message: (r) => ({
      title: `Stock transfer ${str(r.transferNumber)} is ${str(r.status)}`,
      actionUrl: `/stock-transfers/${str(r.id)}`,
    }),
  },
  {
    scope: 'waste.recorded',
    entity: 'WasteRecord',
    when: 'a waste record is created; to the users holding UPDATE_INVENTORY',
    happened: (before) => before === undefined,
    recipients: (users) => users.holding('UPDATE_INVENTORY'),
    message: (r) => ({
      title: 'Waste was recorded',
      body: `${str(r.quantity)} of product ${str(r.productId)}${r.reason ? `: ${str(r.reason)}` : ''}.`,
      actionUrl: `/waste-management/${str(r.id)}`,
    }),
  },
  {
    scope: 'lead.assigned',
    entity: 'Lead',
    when: "a lead's `ownerId` names a new owner (a creation with an owner too); to that owner",
    type: NotificationType.TASK,
    happened: reassigned('ownerId'),
    recipients: (users, after) => users.users([str(after.ownerId)]),
    message: (r) => ({
      title: `Lead ${nameOf(r)} was assigned to you`,
      actionUrl: `/crm/leads/${str(r.id)}`,
    }),
  },
  {
    scope: 'lead.status',
    entity: 'Lead',
    when: "a lead's status changes; to its owner",
    happened: statusChanged,
    recipients: (users, after) => users.users([str(after.ownerId)]),
    message: (r) => ({
      title: `Lead ${nameOf(r)} is ${str(r.status)}`,
      actionUrl: `/crm/leads/${str(r.id)}`,
    }),
  },
  {
    scope: 'activity.due',
    entity: 'Activity',
    when: "an activity's `dueNotifiedAt` is stamped (the due-date reminders, or a client); to its owner",
    type: NotificationType.TASK,
    notifyActor: true,
    happened: stamped('dueNotifiedAt'),
    recipients: (users, after) => users.users([str(after.ownerId)]),
    message: (r) => ({
      title: `${str(r.subject)} is due`,
      body: r.dueDate ? `Due on ${isoDay(r.dueDate)}.` : undefined,
      actionUrl: `/crm/activities/${str(r.id)}`,
    }),
  },
  {
    scope: 'activity.due',
    entity: 'Lead',
    when: "a lead's `nextActionNotifiedAt` is stamped anew (the due-date reminders, or a client): its next action is due; to its owner",
    type: NotificationType.TASK,
    notifyActor: true,
    happened: restamped('nextActionNotifiedAt'),
    recipients: (users, after) => users.users([str(after.ownerId)]),
    message: (r) => ({
      title: `Next action on lead ${nameOf(r)} is due`,
      body: r.nextAction ? str(r.nextAction) : undefined,
      actionUrl: `/crm/leads/${str(r.id)}`,
    }),
  },
  {
    scope: 'activity.due',
    entity: 'Booking',
    when: "a booking's `remindedAt` is stamped (the bookings job reminds its visitor of the meeting): the appointment is near; to the user of its assigned employee",
    type: NotificationType.TASK,
    notifyActor: true,
    happened: stamped('remindedAt'),
    recipients: (users, after) => users.employees([str(after.assignedEmployeeId)]),
    message: (r) => ({
      title: `Appointment with ${nameOf(r)} is coming up`,
      body: r.startTime ? `Starts at ${new Date(r.startTime as string).toISOString()}.` : undefined,
      actionUrl: `/crm/bookings/${str(r.id)}`,
    }),
  },
  {
    scope: 'booking.created',
    entity: 'Booking',
    when: 'a booking is created; to the user of its assigned employee',
    happened: (before) => before === undefined,
    recipients: (users, after) => users.employees([str(after.assignedEmployeeId)]),
    message: (r) => ({
      title: `${nameOf(r)} booked an appointment`,
      body: r.startTime ? `Starts at ${new Date(r.startTime as string).toISOString()}.` : undefined,
      actionUrl: `/crm/bookings/${str(r.id)}`,
    }),
  },
  {
    scope: 'inbox.received',
    entity: 'InboundEmail',
    when: 'an inbound e-mail is stored; to the users holding READ_INBOX and the owner of the lead it came from',
    type: NotificationType.MESSAGE,
    happened: (before) => before === undefined,
    recipients: async (users, after) => [
      ...new Set([
        ...(await users.holding('READ_INBOX')),
        ...(str(after.relatedEntityType) === 'LEAD' ? await users.leadOwner(str(after.relatedEntityId)) : []),
      ]),
    ],
    message: (r) => ({
      title: `New e-mail from ${str(r.fromName) || str(r.fromEmail)}`,
      body: str(r.subject) || undefined,
      actionUrl: `/communications/inbox/${str(r.id)}`,
    }),
  },
  {
    scope: 'project.assigned',
    entity: 'HrProject',
    when: "employees are added to a project's `teamMemberIds` or become its lead; to their users",
    happened: (before, after) =>
      added('teamMemberIds', before, after).length > 0 || reassigned('leadId')(before, after),
    recipients: (users, after, before) =>
      users.employees([
        ...added('teamMemberIds', before, after),
        ...(reassigned('leadId')(before, after) ? [str(after.leadId)] : []),
      ]),
    message: (r) => ({
      title: `You were added to project ${str(r.name)}`,
      actionUrl: `/hr/projects/${str(r.id)}`,
    }),
  },
  {
    scope: 'epic.status',
    entity: 'Epic',
    when: "an epic's status changes; to the user of its owner",
    happened: statusChanged,
    recipients: (users, after) => users.employees([str(after.ownerId)]),
    message: (r) => ({
      title: `Epic ${str(r.name)} is ${str(r.status)}`,
      actionUrl: `/hr/epics/${str(r.id)}`,
    }),
  },
  {
    scope: 'feature.assigned',
    entity: 'Feature',
    when: "a feature is put in an epic (`epicId`, on creation or change); to the user of the epic's owner",
    type: NotificationType.TASK,
    happened: reassigned('epicId'),
    recipients: (users, after) => users.epicOwner(str(after.epicId)),
    message: (r) => ({
      title: `Feature ${str(r.name)} was assigned to you`,
      actionUrl: `/hr/features/${str(r.id)}`,
    }),
  },
  {
    scope: 'team.member-added',
    entity: 'Team',
    when: "employees are added to a team's `memberIds`; to their users",
    happened: (before, after) => added('memberIds', before, after).length > 0,
    recipients: (users, after, before) => users.employees(added('memberIds', before, after)),
    message: (r) => ({ title: `You were added to team ${str(r.name)}`, actionUrl: `/hr/teams/${str(r.id)}` }),
  },
  {
    scope: 'access.changed',
    entity: 'User',
    when: "a user's roles, full access, subsidiary or project access change; to that user",
    type: NotificationType.ALERT,
    happened: (before, after) =>
      before !== undefined &&
      ACCESS_FIELDS.some((f) =>
        Array.isArray(after[f]) ? !sameList(before[f], after[f]) : str(before[f]) !== str(after[f]),
      ),
    recipients: (users, after) => users.users([str(after.id)]),
    message: () => ({ title: 'Your roles or access changed', actionUrl: '/access-control/my-access' }),
  },
];

function isoDay(value: unknown): string {
  const date = value instanceof Date ? value : new Date(str(value));
  return Number.isNaN(date.getTime()) ? str(value) : date.toISOString().slice(0, 10);
}
