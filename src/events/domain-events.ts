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

export const DOMAIN_EVENTS: readonly DomainEvent[] = [
  {
    entity: 'StockInventory',
    name: 'stock_inventory.quantity_changed',
    description: 'Stock moved: received, issued, transferred, adjusted or written off as waste',
    happened: (before, after) =>
      before !== undefined && Number(before.totalQuantity) !== Number(after.totalQuantity),
  },
  {
    entity: 'Invoice',
    name: 'invoice.numbered',
    description: 'The invoice received its number from the tenant sequence',
    happened: (before, after) => Boolean(after.invoiceNumber) && !before?.invoiceNumber,
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
