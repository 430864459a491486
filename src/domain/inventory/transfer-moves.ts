import { wrap } from '@mikro-orm/core';
import { callerOf, type Context } from '../../context';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict } from '../../errors';
import { StockSite } from '../reference/entities/stock-site';
import { ReservationType } from './entities/stock-inventory';
import { StockSource } from './entities/stock-batch';
import {
  type BatchAllocation,
  IncomingTransferStatus,
  type StockTransfer,
  TransferStatus,
} from './entities/stock-transfer';
import type { ProductQuantity } from './entities/shapes';
import { perProduct, round4, unitRates } from './quantities';
import { changeStock, type StockLedger } from './stock-ledger';

/**
 * How a transfer moves stock, step by step, as its status changes:
 *
 * - reserved (APPROVED, PICKING): the quantities still wanted (ordered - cancelled) are reserved
 *   at the source, one reservation of type TRANSFER named by the transfer's id per product;
 * - shipped (SHIPPED and later): the reservation ends and the quantities leave the source's
 *   unexpired batches first-expiring first (the transfer's `batchAllocations` say which); they
 *   are in transit at the destination, and the receiving side is EXPECTED;
 * - delivered (PARTIALLY_DELIVERED, DELIVERED): what `deliveredProducts` adds arrives at the
 *   destination as batches with the numbers, dates and prices they left with, and leaves transit;
 * - closed (CLOSED): what had not arrived was written off (transfer-write-off.ts); nothing moves.
 *
 * A status that skips steps runs each of them in turn. Every step changes the inventories it
 * concerns in one transaction, each locked (changeStock) in the order of (site, product), so
 * two transfers that touch the same inventories cannot deadlock; if any step fails nothing of
 * the change is kept.
 *
 * Quantities move in base units: a line's quantity times its `baseUnitConversion`; the cancelled
 * and delivered quantities of a product are converted at the rate of its lines.
 */

const RESERVED: readonly TransferStatus[] = [TransferStatus.APPROVED, TransferStatus.PICKING];
const SHIPPED: readonly TransferStatus[] = [
  TransferStatus.SHIPPED,
  TransferStatus.PARTIALLY_DELIVERED,
  TransferStatus.DELIVERED,
  TransferStatus.CLOSED,
];

/** How far a status has taken the stock: 0 nothing moved, 1 reserved, 2 shipped. */
function stageOf(status: TransferStatus): number {
  if (SHIPPED.includes(status)) return 2;
  return RESERVED.includes(status) ? 1 : 0;
}

/** A transfer's stored fields before this change (the ORM may keep JSON as its text). */
interface Before {
  status: TransferStatus;
  stockSiteId: string | null;
  destinationStockSiteId: string | null;
  deliveredProducts: ProductQuantity[];
  wanted: Map<string, number>;
}

function beforeOf(t: StockTransfer, isNew: boolean): Before {
  const original = (isNew ? undefined : wrap(t, true).__originalEntityData) as
    Record<string, unknown> | undefined;
  const json = <T>(value: unknown, empty: T): T =>
    value === undefined || value === null
      ? empty
      : typeof value === 'string'
        ? JSON.parse(value)
        : (value as T);
  if (!original)
    return {
      status: TransferStatus.DRAFT,
      stockSiteId: null,
      destinationStockSiteId: null,
      deliveredProducts: [],
      wanted: new Map(),
    };
  const products = json<StockTransfer['products']>(original.products, []);
  const cancelled = json<StockTransfer['cancelledProducts']>(original.cancelledProducts, {
    isNotEmpty: false,
    products: [],
  });
  return {
    status: (original.status as TransferStatus) ?? TransferStatus.DRAFT,
    stockSiteId: (original.stockSiteId as string | null) ?? null,
    destinationStockSiteId: (original.destinationStockSiteId as string | null) ?? null,
    deliveredProducts: json<ProductQuantity[]>(original.deliveredProducts, []),
    wanted: wantedOf({ products, cancelledProducts: cancelled }),
  };
}

const rates = (t: Pick<StockTransfer, 'products'>) => unitRates(t.products);

/** Quantities per product, in base units. */
function inBase(t: Pick<StockTransfer, 'products'>, items: readonly ProductQuantity[]): Map<string, number> {
  const rate = rates(t);
  const out = new Map<string, number>();
  for (const [id, q] of perProduct(items)) out.set(id, round4(q * (rate.get(id) ?? 1)));
  return out;
}

/** The base quantity of each product still wanted: ordered less cancelled. */
function wantedOf(t: Pick<StockTransfer, 'products' | 'cancelledProducts'>): Map<string, number> {
  const ordered = inBase(t, t.products);
  const cancelled = inBase(t, t.cancelledProducts?.products ?? []);
  const out = new Map<string, number>();
  for (const [id, q] of ordered) {
    const left = round4(q - (cancelled.get(id) ?? 0));
    if (left > 0) out.set(id, left);
  }
  return out;
}

const sameFigures = (a: Map<string, number>, b: Map<string, number>) =>
  a.size === b.size && [...a].every(([id, q]) => b.get(id) === q);

interface Step {
  siteId: string;
  productId: string;
  /** The subsidiary of an inventory the step makes (the site's). */
  subsidiaryId?: string | null;
  change: (ledger: StockLedger) => void;
}

/** Runs the steps' changes, each on its locked inventory, in the order of (site, product). */
async function run(ctx: Context, steps: Step[], create: boolean): Promise<void> {
  const ordered = [...steps].sort(
    (a, b) => a.siteId.localeCompare(b.siteId) || a.productId.localeCompare(b.productId),
  );
  for (const step of ordered) {
    await changeStock(
      ctx,
      { siteId: step.siteId, productId: step.productId, subsidiaryId: step.subsidiaryId ?? null },
      {
        create,
        missing: () => conflict(`no stock of product ${step.productId} at site ${step.siteId}`),
      },
      step.change,
    );
  }
}

/** Ends the transfer's reservations at `siteId` (where it reserved) and clears its list. */
function releaseSteps(t: StockTransfer): Step[] {
  return t.reservedProducts
    .filter((r) => r.siteId && r.productId)
    .map((r) => ({
      siteId: r.siteId!,
      productId: r.productId!,
      change: (ledger) => {
        if (ledger.release(t.id))
          ledger.note(`Released ${r.quantity} reserved by transfer ${t.transferNumber}`);
      },
    }));
}

function needSites(t: StockTransfer): { from: string; to: string } {
  if (!t.stockSiteId) throw badRequest('stockSiteId is needed to move stock');
  if (!t.destinationStockSiteId) throw badRequest('destinationStockSiteId is needed to move stock');
  return { from: t.stockSiteId, to: t.destinationStockSiteId };
}

/** Reserves what is wanted at the source, replacing what the transfer reserved before. */
async function reserve(ctx: Context, t: StockTransfer, by: string): Promise<void> {
  const { from } = needSites(t);
  const wanted = wantedOf(t);
  const steps = new Map<string, Step>();
  for (const s of releaseSteps(t)) steps.set(`${s.siteId}|${s.productId}`, s);
  for (const [productId, quantity] of wanted) {
    steps.set(`${from}|${productId}`, {
      siteId: from,
      productId,
      change: (ledger) => {
        ledger.reserve(ReservationType.TRANSFER, t.id, quantity, by);
        ledger.note(`Reserved ${quantity} for transfer ${t.transferNumber}`);
      },
    });
  }
  await run(ctx, [...steps.values()], false);
  t.reservedProducts = [...wanted].map(([productId, quantity]) => ({ productId, quantity, siteId: from }));
}

/** The reservation ends and the wanted quantities leave the source, in transit to the destination. */
async function ship(ctx: Context, t: StockTransfer, by: string): Promise<void> {
  const { from, to } = needSites(t);
  const wanted = wantedOf(t);
  if (wanted.size === 0) throw badRequest('products: a transfer with nothing to ship cannot ship');
  // The destination's inventory, made here when missing, belongs to the site's subsidiary.
  const subsidiaryId = (await ctx.em.findOne(StockSite, { id: to }))?.subsidiaryId ?? null;
  const allocations: BatchAllocation[] = [];
  const steps: Step[] = releaseSteps(t).filter((s) => s.siteId !== from || !wanted.has(s.productId));
  for (const [productId, quantity] of wanted) {
    steps.push({
      siteId: from,
      productId,
      change: (ledger) => {
        ledger.release(t.id);
        const taken = ledger.take(quantity);
        allocations.push(
          ...taken.map((p) => ({
            productId,
            batchNumber: p.batchNumber,
            locationId: p.locationId,
            expirationDate: p.expirationDate?.toISOString() ?? null,
            quantity: p.quantity,
            // Kept in the stored list (not a field of the schema): the price the stock arrives at.
            unitPrice: p.unitPrice,
            productionDate: p.productionDate?.toISOString() ?? null,
          })),
        );
        ledger.note(`Shipped ${quantity} to site ${to} by transfer ${t.transferNumber}`);
      },
    });
    steps.push({
      siteId: to,
      productId,
      subsidiaryId,
      change: (ledger) => {
        ledger.inTransit(t.id, quantity, by);
        ledger.note(`${quantity} in transit from site ${from} by transfer ${t.transferNumber}`);
      },
    });
  }
  await run(ctx, steps, true);
  t.batchAllocations = allocations;
  t.reservedProducts = [];
  t.incomingStockTransferId = t.id;
  t.incomingStockTransferStatus = IncomingTransferStatus.EXPECTED;
}

interface Shipped {
  productId: string;
  quantity: number;
  batchNumber: string | null;
  expirationDate: string | null;
  productionDate: string | null;
  unitPrice: number;
}

/** The deliveries' new quantities arrive at the destination as batches, and leave transit. */
async function deliver(ctx: Context, t: StockTransfer, before: Before, by: string): Promise<void> {
  const { to } = needSites(t);
  const shipped = perProduct(t.batchAllocations);
  const was = inBase(t, before.deliveredProducts);
  const now = inBase(t, t.deliveredProducts);
  for (const [id, q] of now) {
    if (q > (shipped.get(id) ?? 0))
      throw badRequest(
        `deliveredProducts: ${q} of product ${id} is more than the ${shipped.get(id) ?? 0} shipped`,
      );
  }
  const steps: Step[] = [];
  for (const productId of shipped.keys()) {
    const from = was.get(productId) ?? 0;
    const upTo = now.get(productId) ?? 0;
    if (upTo < from)
      throw conflict(
        `deliveredProducts: product ${productId} was delivered ${from}; a delivery cannot be undone`,
      );
    if (upTo === from) continue;
    // The allocations in the order they were shipped; this delivery is the slice [from, upTo).
    const pieces: Shipped[] = [];
    let offset = 0;
    for (const a of t.batchAllocations.filter((x) => x.productId === productId)) {
      const q = Number(a.quantity ?? 0);
      const start = Math.max(from, offset);
      const end = Math.min(upTo, offset + q);
      if (end > start) {
        const stored = a as BatchAllocation & { unitPrice?: number; productionDate?: string | null };
        pieces.push({
          productId,
          quantity: round4(end - start),
          batchNumber: a.batchNumber ?? null,
          expirationDate: a.expirationDate ?? null,
          productionDate: stored.productionDate ?? null,
          unitPrice: Number(stored.unitPrice ?? 0),
        });
      }
      offset += q;
    }
    const quantity = round4(upTo - from);
    steps.push({
      siteId: to,
      productId,
      change: (ledger) => {
        for (const p of pieces)
          ledger.receive({
            batchNumber: p.batchNumber,
            quantity: p.quantity,
            price: p.unitPrice,
            stockSource: StockSource.TRANSFER,
            expirationDate: p.expirationDate,
            productionDate: p.productionDate,
          });
        ledger.inTransit(t.id, -quantity, by);
        ledger.note(`Received ${quantity} by transfer ${t.transferNumber}`);
      },
    });
  }
  await run(ctx, steps, true);
}

/**
 * Moves the stock a status change of `t` asks for (before the transfer is stored, in the same
 * transaction), and keeps the fields that say what moved: `reservedProducts`,
 * `batchAllocations`, the receiving side and, once everything arrived, the status DELIVERED.
 */
export async function moveTransferStock(
  ctx: Context,
  t: StockTransfer,
  isNew: boolean,
  input: { deliveredProducts?: unknown },
): Promise<void> {
  const before = beforeOf(t, isNew);
  const by = callerOf(ctx).email;
  const was = stageOf(before.status);
  if (before.status === TransferStatus.CANCELLED && t.status !== TransferStatus.CANCELLED)
    throw conflict(`transfer ${t.transferNumber} is CANCELLED; a cancelled transfer cannot be reopened`);
  if (before.status === TransferStatus.CLOSED) {
    if (
      t.status !== TransferStatus.CLOSED ||
      input.deliveredProducts !== undefined ||
      !sameFigures(before.wanted, wantedOf(t)) ||
      before.stockSiteId !== (t.stockSiteId ?? null) ||
      before.destinationStockSiteId !== (t.destinationStockSiteId ?? null)
    )
      throw conflict(
        `transfer ${t.transferNumber} is CLOSED (its stock in transit was written off); its status, products, deliveries and sites cannot change`,
      );
    return;
  }
  if (t.status === TransferStatus.CLOSED)
    throw badRequest(
      'status: a transfer is CLOSED by writing off its stock in transit (POST /stock-transfers/{id}/write-off, writeOffStockTransfer)',
    );
  if (t.status === TransferStatus.CANCELLED) {
    if (was === 2)
      throw conflict(
        `transfer ${t.transferNumber} has shipped; a shipped transfer cannot be cancelled: what never arrives is written off (POST /stock-transfers/{id}/write-off), what arrived is returned`,
      );
    if (was === 1) await inTransaction(ctx.em, () => run(ctx, releaseSteps(t), false));
    t.reservedProducts = [];
    return;
  }
  const next = stageOf(t.status);
  if (was === 2) {
    if (next < 2)
      throw conflict(`transfer ${t.transferNumber} has shipped; its status cannot go back to ${t.status}`);
    if (
      !sameFigures(before.wanted, wantedOf(t)) ||
      before.stockSiteId !== (t.stockSiteId ?? null) ||
      before.destinationStockSiteId !== (t.destinationStockSiteId ?? null)
    )
      throw conflict(
        `transfer ${t.transferNumber} has shipped; its products, cancelled quantities and sites cannot change`,
      );
  }
  if (next < 2 && input.deliveredProducts !== undefined && t.deliveredProducts.length > 0)
    throw badRequest('deliveredProducts: nothing can be delivered before the transfer ships');
  await inTransaction(ctx.em, async () => {
    if (next === 0 && was === 1) {
      await run(ctx, releaseSteps(t), false);
      t.reservedProducts = [];
    }
    if (next === 1) {
      const changed =
        was !== 1 ||
        !sameFigures(before.wanted, wantedOf(t)) ||
        before.stockSiteId !== (t.stockSiteId ?? null);
      if (changed) await reserve(ctx, t, by);
    }
    if (next === 2) {
      if (was < 2) await ship(ctx, t, by);
      if (t.status === TransferStatus.DELIVERED)
        t.deliveredProducts = [...perProduct(t.batchAllocations)].map(([productId, quantity]) => ({
          productId,
          quantity: round4(quantity / (rates(t).get(productId) ?? 1)),
          unit: t.products.find((l) => l.productId === productId)?.unit ?? null,
        }));
      await deliver(ctx, t, before, by);
      const shipped = perProduct(t.batchAllocations);
      const delivered = inBase(t, t.deliveredProducts);
      const all = [...shipped].every(([id, q]) => (delivered.get(id) ?? 0) >= q);
      const some = [...delivered.values()].some((q) => q > 0);
      if (all) {
        t.status = TransferStatus.DELIVERED;
        t.incomingStockTransferStatus = IncomingTransferStatus.RECEIVED;
        if (before.status !== TransferStatus.DELIVERED) t.deliveryDate = new Date();
      } else if (some) {
        t.status = TransferStatus.PARTIALLY_DELIVERED;
        t.incomingStockTransferStatus = IncomingTransferStatus.PARTIALLY_RECEIVED;
      } else if (t.status === TransferStatus.PARTIALLY_DELIVERED) {
        throw badRequest('deliveredProducts: name the quantities delivered for PARTIALLY_DELIVERED');
      }
    }
  });
}

/**
 * Before a transfer is deleted: what it reserved is released; while stock it shipped is in
 * transit it cannot be deleted (409), since the stock would vanish with it.
 */
export async function releaseTransferStock(ctx: Context, t: StockTransfer): Promise<void> {
  if (stageOf(t.status) === 2 && t.status !== TransferStatus.DELIVERED && t.status !== TransferStatus.CLOSED)
    throw conflict(
      `transfer ${t.transferNumber} has stock in transit; deliver it or write it off before deleting the transfer`,
    );
  if (stageOf(t.status) === 1) await inTransaction(ctx.em, () => run(ctx, releaseSteps(t), false));
}
