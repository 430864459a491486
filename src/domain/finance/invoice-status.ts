import { InvoiceStatus } from './entities/invoice';
import { settlement } from './money';

/**
 * The payment-driven status of a sales invoice, shared by every write and the daily overdue
 * run, so both reach the same status from the same facts.
 */

/**
 * One formatter per time zone, kept: making one loads the zone's rules (ICU), which cost more than
 * all the rest of an invoice's status, and every write of an invoice asks for two days. The zones
 * are IANA's (a tenant's setting), a few hundred at most.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) `at` falls on in `timeZone`. */
export function dayIn(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** Whole days from the day `due` falls on to the day `now` falls on, both in `timeZone`. */
export function daysPastDueIn(due: Date, now: Date, timeZone: string): number {
  const start = (day: string) => Date.parse(`${day}T00:00:00Z`);
  return Math.round((start(dayIn(now, timeZone)) - start(dayIn(due, timeZone))) / 86_400_000);
}

/** Past due: the tenant's day today is after the due date's day (an invoice is payable on its due date). */
export const isPastDue = (due: Date | null | undefined, now: Date, timeZone: string): boolean =>
  !!due && daysPastDueIn(due, now, timeZone) > 0;

/**
 * The status once payments are taken into account: CANCELLED is final; paid in full is PAID;
 * money outstanding past the due date on an invoice that went out (not a DRAFT) is OVERDUE,
 * paid in part or not at all, so a partial payment does not hide it; otherwise paid in part is
 * PARTIALLY_PAID, and an invoice whose payments were refunded returns to SENT. The service never
 * makes an invoice with nothing to pay (or a credit note) OVERDUE.
 */
export function settledStatus(
  status: InvoiceStatus,
  paid: bigint,
  total: bigint,
  pastDue: boolean,
): InvoiceStatus {
  if (status === InvoiceStatus.CANCELLED) return status;
  const settled = settlement(paid, total);
  if (settled === 'FULL') return InvoiceStatus.PAID;
  // A credit note (a negative total) is money the tenant owes: never the customer's overdue.
  if (status !== InvoiceStatus.DRAFT && total > 0n && pastDue) return InvoiceStatus.OVERDUE;
  // An OVERDUE verdict (the daily run's, or a client's) stands until the invoice is paid in full.
  if (status === InvoiceStatus.OVERDUE) return status;
  if (settled === 'PARTIAL') return InvoiceStatus.PARTIALLY_PAID;
  if (status === InvoiceStatus.PAID || status === InvoiceStatus.PARTIALLY_PAID) return InvoiceStatus.SENT;
  return status;
}
