/**
 * Domain events: names that say more than `<resource>.updated` or `.status_changed` about a change,
 * sent in addition to those (a receiver may listen for either). Each is declared once, here, with
 * the change that makes it happen, judged from the record before (undefined for a creation) and
 * after the flush; the catalog, the OpenAPI document's webhooks and the subscriptions take the
 * names from this list.
 */
export interface DomainEvent {
  /** The entity whose changes it describes. */
  entity: string;
  name: string;
  description: string;
  happened(before: Record<string, unknown> | undefined, after: Record<string, unknown>): boolean;
}

/** Moved into `status` (on a creation with that status too). */
const becomes =
  (status: string) => (before: Record<string, unknown> | undefined, after: Record<string, unknown>) =>
    after.status === status && before?.status !== status;

/** A list's length, whether the snapshot holds it as a list, JSON text or a PostgreSQL array literal. */
function listLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'string' || value === '{}' || value === '[]') return 0;
  if (value.startsWith('[')) return (JSON.parse(value) as unknown[]).length;
  if (value.startsWith('{')) return value.slice(1, -1).split(',').length;
  return 0;
}
const mailCount = (record: Record<string, unknown>) => listLength(record.sentMails);
const hasNewReminder = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  listLength(after.reminders) > listLength(before.reminders);
/** The figures of an inventory that a move of stock changes. */
const STOCK_QUANTITIES = [
  'totalQuantity',
  'reservedQuantity',
  'availableQuantity',
  'inTransitQuantity',
] as const;

export const DOMAIN_EVENTS: readonly DomainEvent[] = [
  {
    entity: 'StockInventory',
    name: 'stock_inventory.quantity_changed',
    description:
      'Stock moved: received, issued, reserved or released, shipped, received or written off in transit by a transfer, adjusted, or written off as waste (or given back)',
    happened: (before, after) =>
      before !== undefined && STOCK_QUANTITIES.some((name) => Number(before[name]) !== Number(after[name])),
  },
  {
    entity: 'StockInventory',
    name: 'stock_inventory.low',
    description:
      'The stock of a product at a site fell to or below its minimum, or ran out: the status went from IN_STOCK (or a new inventory) to LOW_STOCK or OUT_OF_STOCK; once per crossing',
    happened: (before, after) =>
      (before === undefined || before.status === 'IN_STOCK') &&
      (after.status === 'LOW_STOCK' || after.status === 'OUT_OF_STOCK'),
  },
  {
    entity: 'Invoice',
    name: 'invoice.numbered',
    description: 'The invoice received its number from the tenant sequence',
    happened: (before, after) => Boolean(after.invoiceNumber) && !before?.invoiceNumber,
  },
  {
    entity: 'Invoice',
    name: 'invoice.sent',
    description:
      'The invoice was mailed to its customer (sendInvoice, or a recurring agreement with autoSend)',
    happened: (before, after) =>
      before !== undefined && mailCount(after) > mailCount(before) && !hasNewReminder(before, after),
  },
  {
    entity: 'Invoice',
    name: 'invoice.pdf_made',
    description:
      "The invoice's PDF was made after the invoice was saved: `pdf` names the file (an invoice's create or edit answers it null until then)",
    happened: (before, after) => before !== undefined && before.pdf == null && after.pdf != null,
  },
  {
    entity: 'Invoice',
    name: 'invoice.overdue',
    description: 'The invoice became OVERDUE: money is outstanding past its due date',
    happened: becomes('OVERDUE'),
  },
  {
    entity: 'Invoice',
    name: 'invoice.reminded',
    description: 'A payment reminder for the invoice was mailed',
    happened: (before, after) => before !== undefined && hasNewReminder(before, after),
  },
  {
    entity: 'Lead',
    name: 'lead.qualified',
    description: 'The lead became QUALIFIED',
    happened: becomes('QUALIFIED'),
  },
  { entity: 'Lead', name: 'lead.won', description: 'The lead became WON', happened: becomes('WON') },
  { entity: 'Lead', name: 'lead.lost', description: 'The lead became LOST', happened: becomes('LOST') },
];

export const domainEventsOf = (entity: string): readonly DomainEvent[] =>
  DOMAIN_EVENTS.filter((e) => e.entity === entity);
