import { callerTenant } from '../access/caller-tenant';
import { callerOf, type Context } from '../../context';
import { Subsidiary } from '../reference/entities/subsidiary';
import { Supplier } from '../reference/entities/supplier';
import { badRequest } from '../../errors';
import { requireRef } from '../../family/references';
import { financeDefaults } from './tenant-defaults';
import type {
  ApInvoiceInput,
  ApInvoicePaymentInput,
  ApInvoiceRowInput,
  LinkedPurchaseOrderInput,
} from './api/ap-invoice-inputs';
import {
  ApClassificationMethod,
  ApInvoiceStatus,
  ApPaymentStatus,
  type ApInvoice,
  type ApInvoicePayment,
  type ApInvoiceRow,
  type LinkedPurchaseOrder,
} from './entities/ap-invoice';
import {
  addDays,
  applyStatusRequest,
  daysPastDue,
  latest,
  normalizeCurrency,
  copyJsonInputs,
  recordPayments,
  rowsAndTotals,
  setJson,
  storedJson,
} from './common';
import {
  amount,
  cents,
  checkRange,
  lineAmounts,
  lineInput,
  paidCents,
  settlement,
  shownAmounts,
  sumCents,
  type LineAmounts,
} from './money';

/**
 * What the service decides about a purchase invoice before it is stored (the group's
 * beforeSave): references, defaults, row amounts and totals, payments, purchase-order links and
 * the payment status.
 */
export const DEFAULT_AP_TERM_DAYS = 30;

/** Status moves on update: CANCELLED is final, and a POSTED invoice is booked and stays so. */
const MOVES: Record<ApInvoiceStatus, ApInvoiceStatus[]> = {
  [ApInvoiceStatus.DRAFT]: [ApInvoiceStatus.APPROVED, ApInvoiceStatus.CANCELLED],
  [ApInvoiceStatus.APPROVED]: [ApInvoiceStatus.DRAFT, ApInvoiceStatus.POSTED, ApInvoiceStatus.CANCELLED],
  [ApInvoiceStatus.POSTED]: [ApInvoiceStatus.CANCELLED],
  [ApInvoiceStatus.CANCELLED]: [],
};

function checkMove(from: ApInvoiceStatus | null | undefined, to: ApInvoiceStatus | null | undefined) {
  if (!from || !to || from === to) return;
  if (!MOVES[from].includes(to)) {
    const allowed = MOVES[from].length ? `it may become ${MOVES[from].join(' or ')}` : 'it is final';
    throw badRequest(`status: an AP invoice that is ${from} cannot become ${to}; ${allowed}`);
  }
}

type RowSource = ApInvoiceRowInput | ApInvoiceRow;

function computeRows(
  source: readonly RowSource[],
  defaultRate: number,
): { rows: ApInvoiceRow[]; totals: LineAmounts } {
  const totalFields = { total: 'subtotal', taxAmount: 'taxAmount', totalWithTax: 'totalAmount' };
  return rowsAndTotals(source, totalFields, (r, id, field) => {
    const values = lineInput(r, defaultRate);
    const line = lineAmounts(values, field);
    const row: ApInvoiceRow = {
      id,
      description: r.description ?? null,
      glAccountId: r.glAccountId ?? null,
      productId: r.productId ?? null,
      ...values,
      ...shownAmounts(line),
    };
    return { row, line };
  });
}

function paymentsOf(
  input: readonly ApInvoicePaymentInput[],
  stored: readonly ApInvoicePayment[],
  email: string,
): ApInvoicePayment[] {
  return recordPayments(input, stored, 'payments', email, (p, base) => ({
    ...base,
    bankTransactionId: p.bankTransactionId ?? null,
    note: p.note ?? null,
    reference: p.reference ?? null,
    paymentMethod: p.paymentMethod ?? null,
  }));
}

function linksOf(
  input: readonly LinkedPurchaseOrderInput[],
  stored: readonly LinkedPurchaseOrder[],
  email: string,
): LinkedPurchaseOrder[] {
  const previous = new Map(stored.map((l) => [l.purchaseOrderId, l]));
  const seen = new Set<string>();
  const now = new Date().toISOString();
  return input.map((l, i) => {
    if (seen.has(l.purchaseOrderId)) {
      throw badRequest(
        `linkedPurchaseOrders[${i}].purchaseOrderId: ${l.purchaseOrderId} is linked twice; give one allocation per order`,
      );
    }
    seen.add(l.purchaseOrderId);
    const before = previous.get(l.purchaseOrderId);
    return {
      allocatedAmount: amount(
        checkRange(cents(l.allocatedAmount), `linkedPurchaseOrders[${i}].allocatedAmount`),
      ),
      costType: l.costType ?? null,
      purchaseOrderId: l.purchaseOrderId,
      purchaseOrderNumber: l.purchaseOrderNumber ?? null,
      purchaseOrderStatus: l.purchaseOrderStatus ?? null,
      purchaseOrderTotal:
        l.purchaseOrderTotal === undefined || l.purchaseOrderTotal === null
          ? null
          : amount(cents(l.purchaseOrderTotal)),
      stockAdjustmentApplied: l.stockAdjustmentApplied ?? false,
      created: before?.created ?? now,
      createdBy: before?.createdBy ?? email,
    };
  });
}

const PAYMENT_STATUS = {
  NONE: ApPaymentStatus.UNPAID,
  PARTIAL: ApPaymentStatus.PARTIALLY_PAID,
  FULL: ApPaymentStatus.PAID,
} as const;

export async function prepareApInvoice(
  ctx: Context,
  invoice: ApInvoice,
  input: Partial<ApInvoiceInput>,
  isNew: boolean,
): Promise<void> {
  const caller = callerOf(ctx);
  applyStatusRequest(invoice, input.status, isNew, checkMove);

  if (input.subsidiaryId) await requireRef(ctx, 400, 'subsidiaryId', input.subsidiaryId, Subsidiary);
  if (input.supplierId) {
    const supplier = await requireRef(ctx, 400, 'supplierId', input.supplierId, Supplier);
    // A name or e-mail given with the supplier wins; otherwise the supplier's own are copied.
    if (input.supplierName === undefined) invoice.supplierName = supplier.name;
    if (input.supplierEmail === undefined) invoice.supplierEmail = supplier.email ?? null;
  }

  const defaults = financeDefaults((await callerTenant(ctx)).settings);
  invoice.currency = normalizeCurrency(invoice.currency ?? defaults.currency);
  invoice.status ??= ApInvoiceStatus.DRAFT;
  invoice.classificationMethod ??= ApClassificationMethod.MANUAL;
  invoice.invoiceDate ??= new Date();
  invoice.dueDate ??= addDays(invoice.invoiceDate, DEFAULT_AP_TERM_DAYS);
  if (isNew) invoice.receivedDate ??= new Date();
  if (daysPastDue(invoice.invoiceDate, invoice.dueDate) < 0) {
    throw badRequest(
      `dueDate: ${invoice.dueDate.toISOString()} is before invoiceDate ${invoice.invoiceDate.toISOString()}`,
    );
  }
  copyJsonInputs(invoice, input, ['attachments', 'pdf', 'classification']);
  invoice.attachments ??= [];

  const { rows, totals } = computeRows(input.rows ?? invoice.rows ?? [], defaults.vat);
  setJson(invoice, 'rows', rows);
  invoice.subtotal = amount(totals.total);
  invoice.taxAmount = amount(totals.taxAmount);
  invoice.totalAmount = amount(totals.totalWithTax);

  if (input.payments !== undefined)
    setJson(
      invoice,
      'payments',
      paymentsOf(input.payments ?? [], storedJson(invoice, 'payments') ?? [], caller.email),
    );
  invoice.payments ??= [];
  const paid = paidCents(invoice.payments, 'paidAmount');
  invoice.paidAmount = amount(paid);
  invoice.outstandingAmount = amount(totals.totalWithTax - paid);
  invoice.paymentStatus = PAYMENT_STATUS[settlement(paid, totals.totalWithTax)];
  invoice.paidDate =
    invoice.paymentStatus === ApPaymentStatus.PAID ? latest(invoice.payments.map((p) => p.date)) : null;

  if (input.linkedPurchaseOrders !== undefined) {
    setJson(
      invoice,
      'linkedPurchaseOrders',
      linksOf(
        input.linkedPurchaseOrders ?? [],
        storedJson(invoice, 'linkedPurchaseOrders') ?? [],
        caller.email,
      ),
    );
  }
  invoice.linkedPurchaseOrders ??= [];
  const linked = checkRange(
    sumCents(invoice.linkedPurchaseOrders.map((l) => cents(l.allocatedAmount))),
    'totalLinkedAmount',
  );
  invoice.totalLinkedAmount = amount(linked);
  invoice.unlinkedAmount = amount(totals.totalWithTax - linked);
  invoice.purchaseOrderIds = invoice.linkedPurchaseOrders.map((l) => l.purchaseOrderId);
}
