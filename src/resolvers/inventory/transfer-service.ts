import type { Context } from '../../context';
import type { StockInventory } from '../../entities/inventory/stock-inventory';
import { SHIPPED_STATUSES, type StockTransfer } from '../../entities/inventory/stock-transfer';
import { round4 } from '../../domain/inventory/quantities';
import { Product } from '../../entities/reference/product';
import { StockSite } from '../../entities/reference/stock-site';
import { isUuid } from '../../family/limits';
import { loaderById } from '../../family/loaders';
import type { Page } from '../../family/page';
import type { SearchInput } from '../../family/search-input';
import { FamilyService } from '../../family/service';
import type {
  EnrichedTransferProduct,
  SiteReservation,
  TransferProductStatus,
} from './enriched-stock-transfer-types';
import { inventoryService } from './inventory-service';
import { perProduct, stockTransfers } from './stock-transfers';

export const transferService = new FamilyService(stockTransfers);

/** A draft with nothing in it but its number (POST /stock-transfers/empty). */
export function createEmptyTransfer(ctx: Context): Promise<StockTransfer> {
  return transferService.create(ctx, {});
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

/**
 * The progress of each product of a transfer, from what the transfer stores:
 * ordered = its product lines; cancelled, delivered, returned = those lists; picked = its batch
 * allocations; shipped = what was picked, once the transfer has shipped (at least what was
 * delivered); pending = ordered - cancelled - delivered; cancellable = what is neither
 * cancelled nor picked/shipped; reserved splits into what is already picked (picklist) and the
 * rest (unassigned); finished = delivered + cancelled.
 */
export function productStatusOf(t: StockTransfer): TransferProductStatus[] {
  const ordered = perProduct(t.products);
  const cancelled = perProduct(t.cancelledProducts?.products ?? []);
  const delivered = perProduct(t.deliveredProducts ?? []);
  const returned = perProduct(t.returnedProducts ?? []);
  const picked = perProduct(t.batchAllocations);
  const reserved = perProduct(t.reservedProducts);
  const shippedNow = SHIPPED_STATUSES.includes(t.status);
  return [...ordered.keys()].map((productId) => {
    const q = (m: Map<string, number>) => m.get(productId) ?? 0;
    const lines = t.products.filter((l) => l.productId === productId);
    const units = lines.reduce((s, l) => s + Number(l.quantity ?? 0), 0);
    const value = lines.reduce((s, l) => s + Number(l.quantity ?? 0) * Number(l.pricePerUnit ?? 0), 0);
    const shipped = shippedNow ? Math.max(q(picked), q(delivered)) : q(delivered);
    const reservedPicklist = Math.min(q(reserved), q(picked));
    return {
      productId,
      quantityOrdered: q(ordered),
      quantityCancelled: q(cancelled),
      quantityDelivered: q(delivered),
      quantityReturned: q(returned),
      quantityPicked: q(picked),
      quantityShipped: round4(shipped),
      quantityPending: round4(Math.max(0, q(ordered) - q(cancelled) - q(delivered))),
      quantityCanBeCancelled: round4(Math.max(0, q(ordered) - q(cancelled) - Math.max(q(picked), shipped))),
      quantityReservedPicklist: round4(reservedPicklist),
      quantityReservedUnassigned: round4(Math.max(0, q(reserved) - reservedPicklist)),
      finishedQuantity: round4(Math.min(q(ordered), q(delivered) + q(cancelled))),
      unitPrice: units > 0 ? round4(value / units) : Number(lines[0]?.pricePerUnit ?? 0),
      returnStarted: q(returned) > 0,
    };
  });
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
