import { raw, type QBFilterQuery, type SqlEntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../../context';
import { ApInvoice, ApInvoiceStatus, ApPaymentStatus } from '../entities/ap-invoice';
import { badRequest } from '../../../errors';
import { isUuid } from '../../../limits';
import type { Page } from '../../../schema/page';
import type { SortInput } from '../../../family/search-input';
import { FamilyService } from '../../../family/service';
import { normalizeCurrency } from '../common';
import { AGING_BUCKETS, bucketOf } from '../aging';
import { amount, cents, sumCents } from '../money';
import { apInvoices } from './ap-invoices';
import type { AgingReport } from './report-types';

/** Purchase-invoice queries beyond the standard family; all within the caller's tenant and scope. */
export const apInvoiceService = new FamilyService(apInvoices);

/** A page of one supplier's invoices; an id that cannot exist gives an empty page. */
export async function apInvoicesBySupplier(
  ctx: Context,
  supplierId: string,
  paging: { page?: number | null; size?: number | null; sort?: SortInput[] | null },
): Promise<Page<ApInvoice>> {
  const input = { page: paging.page ?? undefined, size: paging.size ?? undefined, sort: paging.sort ?? [] };
  // A malformed id matches nothing, but paging and sort are still checked (and a 400 when bad).
  return apInvoiceService.search(ctx, input, isUuid(supplierId) ? { supplierId } : { id: null });
}

/**
 * Outstanding purchase invoices (unpaid or partly paid, not cancelled) of one currency, by days
 * past due, counted and summed in the database. Invoices without a due date are current.
 */
export async function apAgingReport(
  ctx: Context,
  subsidiaryId: string | null | undefined,
  currency: string | null | undefined,
): Promise<AgingReport> {
  if (subsidiaryId && !isUuid(subsidiaryId)) throw badRequest(`subsidiaryId: ${subsidiaryId} is not an id`);
  if (currency !== undefined && currency !== null && !/^[A-Za-z]{3}$/.test(currency))
    throw badRequest(`currency: ${currency} is not a three-letter ISO 4217 code`);
  const code = normalizeCurrency(currency);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);

  const qb = (ctx.em as SqlEntityManager).createQueryBuilder(ApInvoice, 'a').where(
    apInvoiceService.where(ctx, {
      currency: code,
      paymentStatus: { $in: [ApPaymentStatus.UNPAID, ApPaymentStatus.PARTIALLY_PAID] },
      status: { $ne: ApInvoiceStatus.CANCELLED },
      ...(subsidiaryId ? { subsidiaryId } : {}),
    }) as QBFilterQuery<ApInvoice>,
  );
  await qb.applyFilters();
  // Days past due in whole UTC calendar days, as daysOverdue counts them (see common.daysPastDue).
  // `today` is an ISO date made here, so it can stand in the SQL text.
  const days = `coalesce(date '${today}' - (a.due_date at time zone 'UTC')::date, 0)`;
  qb.select([
    raw(`${days} as days`),
    raw('count(*)::int as n'),
    raw('coalesce(sum(a.outstanding_amount), 0)::text as amount'),
  ]).groupBy(raw(days));
  const rows = (await qb.execute('all', false)) as { days: number; n: number; amount: string }[];

  const buckets = new Map(AGING_BUCKETS.map(([label]) => [label, { count: 0, cents: 0n }]));
  for (const row of rows) {
    const bucket = buckets.get(bucketOf(Number(row.days)))!;
    bucket.count += Number(row.n);
    bucket.cents += cents(row.amount);
  }
  return {
    buckets: [...buckets].map(([bucket, b]) => ({ bucket, count: b.count, totalAmount: amount(b.cents) })),
    currency: code,
    generatedAt: now,
    totalOutstanding: amount(sumCents([...buckets.values()].map((b) => b.cents))),
  };
}
