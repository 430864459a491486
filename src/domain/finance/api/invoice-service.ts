import { raw, type QBFilterQuery, type QueryBuilder, type SqlEntityManager } from '@mikro-orm/postgresql';
import { callerOf, type Context } from '../../../context';
import { inTransaction } from '../../../db/transaction';
import { mailInvoice } from '../invoice-mail';
import { Invoice, InvoiceStatus } from '../entities/invoice';
import { FamilyService } from '../../../family/service';
import type { SendInvoiceInput } from './invoice-inputs';
import type { InvoiceDateRange, InvoiceStatusCounts } from './report-types';
import { invoices } from './invoices';

/** Sales-invoice queries beyond the standard family; all within the caller's tenant and scope. */
export const invoiceService = new FamilyService(invoices);

/** A query builder over the invoices the caller may see (tenant filter and subsidiary scope). */
function visibleInvoices(ctx: Context): QueryBuilder<Invoice> {
  return (ctx.em as SqlEntityManager)
    .createQueryBuilder(Invoice, 'i')
    .where(invoiceService.where(ctx) as QBFilterQuery<Invoice>);
}

export async function invoiceCountByStatus(ctx: Context): Promise<InvoiceStatusCounts> {
  const qb = visibleInvoices(ctx)
    .select(['i.status as status', raw('count(*)::int as n')])
    .groupBy('i.status');
  await qb.applyFilters();
  const rows = (await qb.execute('all', false)) as { status: InvoiceStatus | null; n: number }[];
  const counts = Object.fromEntries(Object.values(InvoiceStatus).map((s) => [s, 0])) as Record<
    InvoiceStatus,
    number
  >;
  for (const row of rows) if (row.status) counts[row.status] = Number(row.n);
  return counts;
}

export async function invoiceDateRange(ctx: Context): Promise<InvoiceDateRange> {
  const qb = visibleInvoices(ctx).select([
    raw('min(i.invoice_date) as min'),
    raw('max(i.invoice_date) as max'),
  ]);
  await qb.applyFilters();
  const [row] = (await qb.execute('all', false)) as {
    min: Date | string | null;
    max: Date | string | null;
  }[];
  const date = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v));
  return { min: date(row?.min), max: date(row?.max) };
}

/**
 * Mails the invoice (invoice-mail.ts) and records it, in one transaction: the SentMails, the
 * queued messages, `sentMails` and DRAFT -> SENT commit together or not at all.
 */
export async function sendInvoice(
  ctx: Context,
  id: string,
  input: SendInvoiceInput | null | undefined,
): Promise<Invoice> {
  return inTransaction(ctx.em, async () => {
    const invoice = await invoiceService.oneOrFail(ctx, id);
    await mailInvoice(ctx.em, ctx.files?.backend, invoice, 'invoice', input ?? {}, callerOf(ctx).email);
    await ctx.em.flush();
    return invoice;
  });
}
