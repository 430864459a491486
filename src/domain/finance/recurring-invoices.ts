import { LockMode, type EntityManager } from '@mikro-orm/core';
import { AppError } from '../../errors';
import { nextNumber } from '../../services/sequences';
import type { FileBackend } from '../../files/backend';
import { tenantWork } from '../../db/tenant-transaction';
import { Invoice, InvoiceStatus, InvoiceType, type RecurringAgreement } from './entities/invoice';
import { addDays, addMonths } from './common';
import { computeRows, formatInvoiceNumber, INVOICE_SEQUENCE } from './invoice-rules';
import { recurringDueIds } from './invoice-due-repository';
import { mailInvoice } from './invoice-mail';
import { queueInvoicePdfs } from './invoice-pdf-queue';
import { dayIn } from './invoice-status';
import { amount } from './money';
import { INVOICING_ACTOR } from './overdue-reminders';
import { tenantFinanceDefaults } from './tenant-defaults';

export interface RecurringOutcome {
  /** Invoices made. */
  generated: number;
  /** Of those, mailed at once (autoSend). */
  sent: number;
  /** Made with autoSend but left DRAFT: no recipient to send them to. */
  unsent: number;
}

/** The next date of an agreement after `from`: its months, then its days. */
export const nextDate = (from: Date, a: RecurringAgreement): Date =>
  addDays(addMonths(from, a.intervalMonths ?? 0), a.intervalDays ?? 0);

/** An agreement that repeats (a zero interval would make invoices forever). */
const repeats = (a: RecurringAgreement | null | undefined): a is RecurringAgreement =>
  !!a?.nextInvoiceDate && ((a.intervalMonths ?? 0) > 0 || (a.intervalDays ?? 0) > 0);

/** The most periods one run makes of one agreement: years of downtime of a daily agreement. */
const MAX_PERIODS = 1000;

/**
 * The daily run of one tenant's recurring agreements: each invoice carrying an agreement whose
 * `nextInvoiceDate` has come (its day, in the tenant's time zone, is `today`'s or earlier) gets
 * a new numbered invoice per period due: the rows, customer, contact and texts copied, dated
 * that period's day, DRAFT, or sent as sendInvoice sends when the agreement says `autoSend`.
 * `nextInvoiceDate` moves on by the interval, once per period made, until it passes `today`, so
 * after downtime every missed period is made once; none after `endDate`. The copies are MANUAL
 * invoices without an agreement of their own. Each agreement is handled in a transaction of its
 * own holding its invoice's row lock, and decides on the row as locked, so any number of
 * processes running this at once make each period once.
 */
export async function generateRecurringInvoices(
  em: EntityManager,
  tenantId: string,
  today: Date,
  options: { backend?: FileBackend } = {},
): Promise<RecurringOutcome> {
  const inTenant = tenantWork(em, tenantId, INVOICING_ACTOR);
  const outcome: RecurringOutcome = { generated: 0, sent: 0, unsent: 0 };
  const { timeZone, ids } = await inTenant(async (t) => {
    const { timeZone } = await tenantFinanceDefaults(t, tenantId);
    // A day's margin for the time zone; the exact test is per agreement below.
    const ids = await recurringDueIds(t, tenantId, today);
    return { timeZone, ids };
  });
  const todayIs = dayIn(today, timeZone);
  for (const id of ids) {
    await inTenant(async (t) => {
      const source = await t.findOne(Invoice, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      let agreement: RecurringAgreement | null | undefined = source?.recurringAgreement;
      if (!source || source.status === InvoiceStatus.CANCELLED || !repeats(agreement)) return;
      const end = agreement.endDate ? dayIn(new Date(agreement.endDate), timeZone) : null;
      const made: string[] = [];
      for (let n = 0; n < MAX_PERIODS && repeats(agreement); n++) {
        const date: Date = new Date(agreement.nextInvoiceDate!);
        const day = dayIn(date, timeZone);
        if (day > todayIs || (end !== null && day > end)) break;
        const copy = await copyOf(t, source, date);
        made.push(copy.id);
        outcome.generated += 1;
        if (agreement.autoSend) {
          try {
            await mailInvoice(t, options.backend, copy, 'invoice', {}, INVOICING_ACTOR);
            outcome.sent += 1;
          } catch (err) {
            // No recipient (400), or details the tenant's e-invoice needs (409): the invoice stays
            // a DRAFT for someone to send once they are there.
            if (!(err instanceof AppError && (err.status === 400 || err.status === 409))) throw err;
            outcome.unsent += 1;
          }
        }
        agreement = { ...agreement, nextInvoiceDate: nextDate(date, agreement).toISOString() };
      }
      source.recurringAgreement = agreement;
      await t.flush();
      // Their PDFs are made after this commits, as every invoice's (invoice-pdf-queue.ts); a copy
      // mailed at once had its PDF rendered for the mail.
      await queueInvoicePdfs(t, tenantId, made);
    });
  }
  return outcome;
}

/** A new numbered invoice with `source`'s rows and parties, dated `date`. */
async function copyOf(em: EntityManager, source: Invoice, date: Date): Promise<Invoice> {
  const type =
    source.type === InvoiceType.RECURRING ? InvoiceType.MANUAL : (source.type ?? InvoiceType.MANUAL);
  const { rows, totals } = computeRows(source.rows, type);
  const term = source.paymentTermDays ?? 0;
  const copy = Object.assign(new Invoice(), {
    tenantId: source.tenantId,
    type,
    status: InvoiceStatus.DRAFT,
    clientId: source.clientId,
    contactEmail: source.contactEmail,
    currency: source.currency,
    mailBody: source.mailBody,
    reminderBody: source.reminderBody,
    note: source.note,
    opportunityId: source.opportunityId,
    subsidiaryId: source.subsidiaryId,
    paymentReference: source.paymentReference,
    invoiceDate: date,
    paymentTermDays: term,
    dueDate: addDays(date, term),
    rows,
    totalExcludingTax: amount(totals.total),
    totalTax: amount(totals.taxAmount),
    totalWithTax: amount(totals.totalWithTax),
    total: amount(totals.totalWithTax),
    paid: 0,
    paidExcludingTax: 0,
    transactions: [],
    reminders: [],
    attachments: [],
    sentMails: [],
  });
  copy.invoiceNumber = formatInvoiceNumber(date.getUTCFullYear(), await nextNumber(em, INVOICE_SEQUENCE));
  em.persist(copy);
  return copy;
}
