import { type ApInvoice, ApInvoiceStatus, ApPaymentStatus } from './entities/ap-invoice';
import { daysPastDue } from './common';

/** Age ranges by days past due: [label, first day, last day]. */
export const AGING_BUCKETS: readonly [string, number, number][] = [
  ['current', Number.NEGATIVE_INFINITY, 0],
  ['1-30', 1, 30],
  ['31-60', 31, 60],
  ['61-90', 61, 90],
  ['90+', 91, Number.POSITIVE_INFINITY],
];

export const bucketOf = (days: number): string =>
  AGING_BUCKETS.find(([, from, to]) => days >= from && days <= to)![0];

/** Days past due of an unsettled, live invoice; 0 for others (read time, not stored). */
export function daysOverdue(invoice: ApInvoice, now = new Date()): number {
  if (!invoice.dueDate) return 0;
  if (invoice.status === ApInvoiceStatus.CANCELLED || invoice.paymentStatus === ApPaymentStatus.PAID)
    return 0;
  return Math.max(0, daysPastDue(invoice.dueDate, now));
}
