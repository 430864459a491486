import { LockMode } from '@mikro-orm/core';
import type { Context } from '../../../context';
import { inTransaction } from '../../../db/transaction';
import { notFound } from '../../../errors';
import type { StockInventory } from '../entities/stock-inventory';
import { StockTransfer } from '../entities/stock-transfer';
import { writeOffInTransit } from '../transfer-write-off';
import { round4 } from '../quantities';
import { productStatusOf } from '../transfer-progress';
import { Product } from '../../reference/entities/product';
import { StockSite } from '../../reference/entities/stock-site';
import { isUuid } from '../../../limits';
import { loaderById } from '../../../family/loaders';
import type { Page } from '../../../schema/page';
import type { SearchInput } from '../../../family/search-input';
import { FamilyService } from '../../../family/service';
import type { EnrichedTransferProduct, SiteReservation } from './enriched-stock-transfer-types';
import { inventoryService } from './inventory-service';
import { stockTransfers } from './stock-transfers';

export const transferService = new FamilyService(stockTransfers);

/** A draft with nothing in it but its number (POST /stock-transfers/empty). */
export function createEmptyTransfer(ctx: Context): Promise<StockTransfer> {
  return transferService.create(ctx, {});
}

/**
 * Writes off the stock the transfer still has in transit and closes it (transfer-write-off.ts),
 * with the transfer's row locked so that a change of it racing this one waits and then sees it
 * CLOSED.
 */
export function writeOffTransfer(ctx: Context, id: string, reason: string): Promise<StockTransfer> {
  return inTransaction(ctx.em, async () => {
    const visible = await transferService.oneOrFail(ctx, id);
    const t = await ctx.em.findOne(
      StockTransfer,
      { id: visible.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!t) throw notFound(`StockTransfer ${id} does not exist`);
    await writeOffInTransit(ctx, t, reason);
    await ctx.em.flush();
    return t;
  });
}

/** The enriched form names the destination `destinationSiteId`; searches may use either name. */
export function searchEnriched(
  ctx: Context,
  input: SearchInput,
  joined: readonly string[] = [],
): Promise<Page<StockTransfer>> {
  const rename = (field: string) => (field === 'destinationSiteId' ? 'destinationStockSiteId' : field);
  return transferService.search(
    ctx,
    {
      ...input,
      filters: input.filters?.map((f) => ({ ...f, field: rename(f.field) })),
      sort: input.sort?.map((s) => ({ ...s, field: rename(s.field) })),
    },
    undefined,
    // The joined values the query selects (a transfer's `events`) come with the page's statement.
    joined.length ? { detached: true, joined } : {},
  );
}

const loaded = <T>(values: (T | null | Error)[]): (T | null)[] =>
  values.map((v) => (v instanceof Error ? null : v));

/** The reserved products of a transfer with their site names (one query per page). */
export async function siteReservationsOf(ctx: Context, t: StockTransfer): Promise<SiteReservation[]> {
  const sites = loaded(
    await loaderById(ctx, StockSite).loadMany(t.reservedProducts.map((r) => r.siteId ?? '')),
  );
  return t.reservedProducts.map((r, i) => ({
    productId: r.productId ?? null,
    quantity: Number(r.quantity ?? 0),
    siteId: r.siteId ?? null,
    siteName: sites[i]?.name ?? null,
  }));
}

/** Reservations by site id; those without a site under "unassigned". */
export async function reservationsBySite(
  ctx: Context,
  t: StockTransfer,
): Promise<Record<string, SiteReservation[]>> {
  const grouped: Record<string, SiteReservation[]> = {};
  for (const r of await siteReservationsOf(ctx, t)) (grouped[r.siteId ?? 'unassigned'] ??= []).push(r);
  return grouped;
}

/** Inventories by "site|product", within the caller's scope: one query for a page of transfers. */
function stockAt(ctx: Context) {
  return ctx.loaders.get<string, StockInventory | null>('inventory:stockAt', async (keys) => {
    const pairs = keys.map((k) => k.split('|'));
    const sites = [...new Set(pairs.map(([s]) => s).filter(isUuid))];
    const products = [...new Set(pairs.map(([, p]) => p).filter(isUuid))];
    const rows =
      sites.length && products.length
        ? await inventoryService.list(ctx, { siteId: { $in: sites }, productId: { $in: products } })
        : [];
    const byKey = new Map(rows.map((r) => [`${r.siteId}|${r.productId}`, r]));
    return keys.map((k) => byKey.get(k) ?? null);
  });
}

/** The product lines with their products, stock at the source site, reservations and progress. */
export async function enrichedProductsOf(ctx: Context, t: StockTransfer): Promise<EnrichedTransferProduct[]> {
  const ids = t.products.map((l) => l.productId ?? '');
  const products = loaded(await loaderById(ctx, Product).loadMany(ids));
  const stocks = t.stockSiteId
    ? loaded(await stockAt(ctx).loadMany(ids.map((id) => `${t.stockSiteId}|${id}`)))
    : ids.map(() => null);
  const reservations = await siteReservationsOf(ctx, t);
  const status = new Map(productStatusOf(t).map((s) => [s.productId, s]));
  return t.products.map((line, i) => {
    const s = line.productId ? status.get(line.productId) : undefined;
    const product = products[i];
    const mine = reservations.filter((r) => r.productId === line.productId);
    return {
      baseUnitConversion: line.baseUnitConversion ?? null,
      baseUnitQuantity: line.baseUnitQuantity ?? null,
      pricePerBaseUnit: line.pricePerBaseUnit ?? null,
      pricePerUnit: line.pricePerUnit ?? null,
      quantity: line.quantity ?? null,
      totalPrice: line.totalPrice ?? null,
      productId: line.productId ?? null,
      unit: line.unit ?? null,
      price: line.pricePerUnit ?? null,
      availableStock: Number(stocks[i]?.availableQuantity ?? 0),
      pending: s?.quantityPending ?? 0,
      quantityCancelled: s?.quantityCancelled ?? 0,
      quantityDelivered: s?.quantityDelivered ?? 0,
      quantityPicked: s?.quantityPicked ?? 0,
      quantityReturned: s?.quantityReturned ?? 0,
      quantityShipped: s?.quantityShipped ?? 0,
      returnStarted: s?.returnStarted ?? false,
      totalReserved: round4(mine.reduce((sum, r) => sum + r.quantity, 0)),
      productName: product?.name ?? null,
      imageAssets: product?.imageAssets ?? [],
      unitsOfMeasurement: product?.unitsOfMeasurement ?? [],
      batchAllocations: t.batchAllocations.filter((a) => a.productId === line.productId),
      reservations: mine,
    };
  });
}
