import { isDeepStrictEqual } from 'node:util';
import { callerOf, type Context } from '../../context';
import { Customer } from '../reference/entities/customer';
import { Opportunity } from '../reference/entities/opportunity';
import { Subsidiary } from '../reference/entities/subsidiary';
import { badRequest, invalidField } from '../../errors';
import { nextNumber } from '../../services/sequences';
import { requireRef } from '../../family/references';
import { loaderById } from '../../family/loaders';
import { gatherReads } from '../../db/orm-bypass/connection-transaction';
import { callerTenant } from '../access/caller-tenant';
import type {
  InvoiceInput,
  InvoiceReminderInput,
  InvoiceRowInput,
  InvoiceTransactionInput,
  RecurringAgreementInput,
} from './api/invoice-inputs';
import {
  InvoiceQuantityType,
  InvoiceRowType,
  InvoiceStatus,
  InvoiceType,
  Invoice,
  type InvoiceReminder,
  type InvoiceRow,
  type InvoiceTransaction,
  type RecurringAgreement,
} from './entities/invoice';
import { queueInvoicePdfs } from './invoice-pdf-queue';
import { financeDefaults, type FinanceDefaults } from './tenant-defaults';
import { isPastDue, settledStatus } from './invoice-status';
import { isReverseCharge, sellerVatParty } from './vat-rules';
import {
  addDays,
  addMonths,
  applyStatusRequest,
  divideRounded,
  iso,
  latest,
  normalizeCurrency,
  copyJsonInputs,
  plainJson,
  recordPayments,
  rowsAndTotals,
  setJson,
  storedJson,
  storedValue,
} from './common';
import { amount, lineAmounts, lineInput, paidCents, shownAmounts, type LineAmounts } from './money';

/**
 * What the service decides about a sales invoice before it is stored (the group's beforeSave):
 * references, defaults, due date, row amounts and totals, paid amounts, the payment-driven
 * status, and on creation the gapless number.
 */
export const INVOICE_SEQUENCE = 'invoice';

export const formatInvoiceNumber = (year: number, n: number) => `${year}-${String(n).padStart(5, '0')}`;

/** The sign a row's total is forced to: discounts reduce, and a credit note mirrors an invoice. */
function rowDirection(row: InvoiceRowType, invoice: InvoiceType): 1 | -1 | undefined {
  const credit = invoice === InvoiceType.CREDIT_NOTE;
  if (row === InvoiceRowType.DISCOUNT) return credit ? 1 : -1;
  return credit ? -1 : undefined;
}

type RowSource = InvoiceRowInput | InvoiceRow;

/**
 * Rows and totals from the rows as sent. A reverse-charged invoice (`reverseCharge`) charges no
 * VAT: every row's rate is 0, whatever it names (docs/business-rules.md, reverse charge).
 */
export function computeRows(
  source: readonly RowSource[],
  invoiceType: InvoiceType,
  defaultRate?: number,
  reverseCharge = false,
): { rows: InvoiceRow[]; totals: LineAmounts } {
  const totalFields = { total: 'totalExcludingTax', taxAmount: 'totalTax', totalWithTax: 'totalWithTax' };
  return rowsAndTotals(source, totalFields, (r, id, field): { row: InvoiceRow; line?: LineAmounts } => {
    const type = r.type ?? InvoiceRowType.ITEM;
    const base = { id, description: r.description ?? null, productId: r.productId ?? null, type };
    if (type === InvoiceRowType.TEXT) {
      // A text line only describes: it carries no amount, whatever numbers came with it.
      const row = {
        ...base,
        quantity: r.quantity ?? null,
        quantityType: r.quantityType ?? null,
        unitPrice: r.unitPrice ?? null,
        taxRate: r.taxRate ?? null,
        taxAmount: 0,
        total: 0,
        totalWithTax: 0,
      };
      return { row };
    }
    const values = lineInput(r, defaultRate);
    if (reverseCharge) values.taxRate = 0;
    const quantityType = r.quantityType ?? InvoiceQuantityType.AMOUNT;
    const line = lineAmounts(
      {
        ...values,
        percentage: quantityType === InvoiceQuantityType.PERCENTAGE,
        direction: rowDirection(type, invoiceType),
      },
      field,
    );
    return { row: { ...base, ...values, quantityType, ...shownAmounts(line) }, line };
  });
}

function transactionsOf(
  input: readonly InvoiceTransactionInput[],
  stored: readonly InvoiceTransaction[],
  tenantId: string,
  email: string,
): InvoiceTransaction[] {
  return recordPayments(input, stored, 'transactions', email, (t, base, before, now) => {
    const content = {
      ...base,
      accountId: t.accountId ?? null,
      description: t.description ?? null,
      paymentMethod: t.paymentMethod ?? null,
      tenantId,
    };
    const unchanged =
      before &&
      (Object.keys(content) as (keyof typeof content)[]).every((k) => (before[k] ?? null) === content[k]);
    return {
      ...content,
      updated: unchanged ? (before.updated ?? now) : now,
      updatedBy: unchanged ? (before.updatedBy ?? email) : email,
    };
  });
}

function remindersOf(
  input: readonly InvoiceReminderInput[],
  stored: readonly InvoiceReminder[],
  email: string,
): InvoiceReminder[] {
  const senders = new Map(stored.map((r) => [r.sentOn, r.createdBy]));
  const now = new Date().toISOString();
  return input.map((r) => {
    const sentOn = iso(r.sentOn) ?? now;
    return { sentOn, createdBy: senders.get(sentOn) ?? email };
  });
}

function agreementOf(input: RecurringAgreementInput, invoiceDate: Date): RecurringAgreement {
  const months = input.intervalMonths ?? 0;
  const days = input.intervalDays ?? 0;
  const next = input.nextInvoiceDate ?? addDays(addMonths(invoiceDate, months), days);
  return {
    autoSend: input.autoSend ?? false,
    endDate: iso(input.endDate),
    nextInvoiceDate: iso(next),
    intervalDays: input.intervalDays ?? null,
    intervalMonths: input.intervalMonths ?? null,
  };
}

/** Moves a client may ask for; the payment states are the service's to set. */
function checkStatusRequest(stored: InvoiceStatus | undefined, requested: InvoiceStatus | undefined) {
  if (!requested) return;
  if (requested === InvoiceStatus.PAID || requested === InvoiceStatus.PARTIALLY_PAID) {
    throw badRequest(`status: ${requested} follows from the transactions; record a transaction instead`);
  }
  if (!stored || requested === stored) return;
  if (stored === InvoiceStatus.CANCELLED)
    throw badRequest(`status: a CANCELLED invoice cannot become ${requested}`);
  if (requested === InvoiceStatus.DRAFT)
    throw badRequest(`status: an invoice that is ${stored} cannot return to DRAFT`);
}

/**
 * What the service decides about an invoice before it is stored: the status request, its
 * references, defaults, amounts, payments and (for a new invoice) its number, in that order.
 */
export async function prepareInvoice(
  ctx: Context,
  invoice: Invoice,
  input: Partial<InvoiceInput>,
  isNew: boolean,
): Promise<void> {
  const caller = callerOf(ctx);
  applyStatusRequest(invoice, input.status, isNew, checkStatusRequest);

  // The first reference's read and the tenant's go out together (one round trip, not two).
  if (input.clientId || input.subsidiaryId || input.creditedInvoiceId || input.opportunityId)
    gatherReads(ctx.em, 2);
  const [, tenant] = await Promise.all([checkReferences(ctx, invoice, input), callerTenant(ctx)]);
  const defaults = financeDefaults(tenant.settings);
  const { type, invoiceDate } = applyDefaults(invoice, input, caller.email, defaults);
  const totals = applyAmounts(invoice, input, type, defaults.vat, await reverseChargeOf(ctx, invoice));
  applyPayments(invoice, input, totals, caller, defaults.timeZone);
  await dropStalePdf(ctx, invoice, input, isNew);
  // A new invoice's PDF is queued before the number's lock is taken, not after the insert
  // (afterInvoiceSave): one round trip less while the tenant's other creates wait on the lock.
  if (isNew) await queueInvoicePdfs(ctx.em, invoice.tenantId, [invoice.id]);
  if (isNew) await assignNumber(ctx, invoice, invoiceDate);
}

/** What an invoice's PDF shows of the invoice itself: a change to any of them makes a new one. */
const PDF_SHOWS = {
  text: ['invoiceNumber', 'type', 'currency', 'clientId', 'creditedInvoiceId', 'paymentReference', 'note'],
  dates: ['invoiceDate', 'dueDate'],
  amounts: ['totalExcludingTax', 'totalTax', 'totalWithTax'],
  json: ['rows'],
} as const satisfies Record<string, readonly (keyof Invoice)[]>;

const sameDate = (a: unknown, b: unknown) =>
  a == null || b == null ? a == b : new Date(a as string).getTime() === new Date(b as string).getTime();

/** Whether the invoice, as changed by this request, shows differently on its PDF than as stored. */
function pdfShowsChange(invoice: Invoice): boolean {
  return (
    PDF_SHOWS.text.some((k) => (storedValue(invoice, k) ?? null) !== (invoice[k] ?? null)) ||
    PDF_SHOWS.dates.some((k) => !sameDate(storedValue(invoice, k), invoice[k])) ||
    PDF_SHOWS.amounts.some((k) => Number(storedValue(invoice, k) ?? 0) !== Number(invoice[k] ?? 0)) ||
    PDF_SHOWS.json.some(
      (k) => !isDeepStrictEqual(storedJson(invoice, k) ?? null, plainJson(invoice[k]) ?? null),
    )
  );
}

/**
 * The PDF is the service's rendering of the invoice, never the client's, and is made after the
 * commit (invoice-pdf-queue.ts), outside the number's lock. So a new invoice has none yet, and a
 * change to what the PDF shows deletes the stored one with the change: `pdf` is null until the
 * new rendering is made (queued with the change), never a rendering of what the invoice was.
 */
async function dropStalePdf(
  ctx: Context,
  invoice: Invoice,
  input: Partial<InvoiceInput>,
  isNew: boolean,
): Promise<void> {
  const stored = isNew ? null : (storedJson(invoice, 'pdf') ?? null);
  if (!isNew && !pdfShowsChange(invoice)) {
    if (input.pdf !== undefined) setJson(invoice, 'pdf', stored);
    return;
  }
  if (stored?.blobId && ctx.files) await ctx.files.remove(ctx.em, invoice.tenantId, stored.blobId);
  invoice.pdf = null;
}

/** After a change is stored: an invoice without its PDF gets it made once this commits (a new one's is queued already). */
export async function afterInvoiceSave(
  ctx: Context,
  invoice: Invoice,
  _input: Partial<InvoiceInput>,
  isNew: boolean,
): Promise<void> {
  if (!isNew && !invoice.pdf) await queueInvoicePdfs(ctx.em, invoice.tenantId, [invoice.id]);
}

/** The customer, subsidiary and opportunity exist; an opportunity supplies a missing customer. */
async function checkReferences(ctx: Context, invoice: Invoice, input: Partial<InvoiceInput>): Promise<void> {
  if (input.clientId) await requireRef(ctx, 400, 'clientId', input.clientId, Customer);
  if (input.subsidiaryId) await requireRef(ctx, 400, 'subsidiaryId', input.subsidiaryId, Subsidiary);
  if (input.creditedInvoiceId) {
    const credited = await requireRef(ctx, 400, 'creditedInvoiceId', input.creditedInvoiceId, Invoice);
    // An invoice of a subsidiary outside the caller's access is as absent as any (data scope).
    const { hasFullAccess, subsidiaryAccess } = callerOf(ctx);
    const hidden =
      credited.subsidiaryId && !hasFullAccess && !subsidiaryAccess.includes(credited.subsidiaryId);
    if (hidden) throw invalidField('creditedInvoiceId', `there is no invoice ${credited.id}`);
    if (credited.id === invoice.id) throw badRequest('creditedInvoiceId: an invoice cannot credit itself');
  }
  if (invoice.creditedInvoiceId && invoice.type !== InvoiceType.CREDIT_NOTE) {
    throw badRequest('creditedInvoiceId: only a CREDIT_NOTE refers to the invoice it corrects');
  }
  if (input.opportunityId) {
    const opportunity = await requireRef(ctx, 400, 'opportunityId', input.opportunityId, Opportunity);
    if (!invoice.clientId && opportunity.customerId) invoice.clientId = opportunity.customerId;
  }
}

/** Whether the sale is reverse-charged: the tenant and the customer, VAT-registered in two EU states. */
async function reverseChargeOf(ctx: Context, invoice: Invoice): Promise<boolean> {
  if (!invoice.clientId) return false;
  // The request's loader has it when checkReferences read it: no second read.
  const customer = await loaderById(ctx, Customer).load(invoice.clientId);
  if (!customer?.vatNumber) return false;
  const tenant = await callerTenant(ctx);
  return isReverseCharge(sellerVatParty(tenant), customer);
}

/** Defaults, the recurring agreement (a RECURRING invoice needs one that repeats) and reminders. */
function applyDefaults(
  invoice: Invoice,
  input: Partial<InvoiceInput>,
  callerEmail: string,
  defaults: FinanceDefaults,
): { type: InvoiceType; invoiceDate: Date } {
  invoice.currency = normalizeCurrency(invoice.currency ?? defaults.currency);
  invoice.type ??= InvoiceType.MANUAL;
  invoice.invoiceDate ??= new Date();
  invoice.paymentTermDays ??= defaults.paymentTermDays;
  invoice.dueDate = addDays(invoice.invoiceDate, invoice.paymentTermDays);
  invoice.sentMails ??= [];
  copyJsonInputs(invoice, input, ['attachments']);
  invoice.attachments ??= [];

  if (input.recurringAgreement !== undefined) {
    setJson(
      invoice,
      'recurringAgreement',
      input.recurringAgreement ? agreementOf(input.recurringAgreement, invoice.invoiceDate) : null,
    );
  }
  if (invoice.type === InvoiceType.RECURRING) {
    const a = invoice.recurringAgreement;
    if (!a || !((a.intervalDays ?? 0) > 0 || (a.intervalMonths ?? 0) > 0)) {
      throw badRequest(
        'recurringAgreement: a RECURRING invoice needs intervalDays or intervalMonths above 0',
      );
    }
  }
  if (input.reminders !== undefined)
    setJson(
      invoice,
      'reminders',
      remindersOf(input.reminders ?? [], storedJson(invoice, 'reminders') ?? [], callerEmail),
    );
  invoice.reminders ??= [];
  return { type: invoice.type, invoiceDate: invoice.invoiceDate };
}

/** Line amounts and the invoice totals, computed from the rows; client-sent totals are ignored. */
function applyAmounts(
  invoice: Invoice,
  input: Partial<InvoiceInput>,
  type: InvoiceType,
  defaultRate: number,
  reverseCharge: boolean,
): ReturnType<typeof computeRows>['totals'] {
  const { rows, totals } = computeRows(input.rows ?? invoice.rows ?? [], type, defaultRate, reverseCharge);
  setJson(invoice, 'rows', rows);
  invoice.totalExcludingTax = amount(totals.total);
  invoice.totalTax = amount(totals.taxAmount);
  invoice.totalWithTax = amount(totals.totalWithTax);
  invoice.total = invoice.totalWithTax;
  return totals;
}

/** Payments, what they settle (paid amounts, status, date paid). */
function applyPayments(
  invoice: Invoice,
  input: Partial<InvoiceInput>,
  totals: ReturnType<typeof computeRows>['totals'],
  caller: { tenantId: string; email: string },
  timeZone: string,
): void {
  if (input.transactions !== undefined) {
    setJson(
      invoice,
      'transactions',
      transactionsOf(
        input.transactions ?? [],
        storedJson(invoice, 'transactions') ?? [],
        caller.tenantId,
        caller.email,
      ),
    );
  }
  invoice.transactions ??= [];
  const paid = paidCents(invoice.transactions, 'paid');
  invoice.paid = amount(paid);
  // Payments carry tax in the invoice's own proportion; without a total there is no tax to split.
  invoice.paidExcludingTax = amount(
    totals.totalWithTax === 0n ? paid : divideRounded(paid * totals.total, totals.totalWithTax),
  );
  invoice.status = settledStatus(
    invoice.status ?? InvoiceStatus.DRAFT,
    paid,
    totals.totalWithTax,
    isPastDue(invoice.dueDate, new Date(), timeZone),
  );
  invoice.datePaid =
    invoice.status === InvoiceStatus.PAID ? latest(invoice.transactions.map((t) => t.date)) : null;
}

async function assignNumber(ctx: Context, invoice: Invoice, invoiceDate: Date): Promise<void> {
  // Last, so the tenant's counter row stays locked for as short a time as possible.
  const n = await nextNumber(ctx.em, INVOICE_SEQUENCE);
  invoice.invoiceNumber = formatInvoiceNumber(invoiceDate.getUTCFullYear(), n);
}
