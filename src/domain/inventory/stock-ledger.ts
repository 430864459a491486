import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { callerOf, type Caller, type Context } from '../../context';
import { actorOf } from '../../db/tenancy';
import { EventType } from '../../entities/event';
import { HistoryType } from '../../entities/history-entry';
import { fieldChanges, historyEntry, noteChange, takeNotes } from '../../history/recorder';
import { conflict, notFound } from '../../errors';
import type { OutboxEvent } from '../../entities/outbox-event';
import { eventName, outboxRow, recordData, resourceName } from '../../events/outbox';
import {
  type ReservationType,
  StockInventory,
  type StockReservation,
  StockStatus,
} from './entities/stock-inventory';
import { StockBatch, StockSource } from './entities/stock-batch';
import { round4, sumOf } from './quantities';

/**
 * The stock of one product at one site, changed only while its StockInventory row is locked.
 *
 * Every change of quantities runs in a transaction that first locks the row (SELECT ... FOR
 * UPDATE); a missing row is created with INSERT ... ON CONFLICT DO NOTHING, so two requests that
 * both find it missing cannot both create it: the second waits for the first and then locks the
 * row the first made. Concurrent changes therefore queue instead of overwriting each other or
 * failing on the optimistic version.
 *
 * Invariants kept here: totalQuantity is the sum of the batches; unitPrice is their
 * quantity-weighted average price (unchanged when no stock is left); reservedQuantity and
 * inTransitQuantity are the sums of their lists; availableQuantity = total - reserved, never
 * negative; the status follows from the available quantity and the minimum.
 */

/** Sets the quantities that follow from the reservation and in-transit lists, and the status. */
export function recomputeDerived(inv: StockInventory): void {
  inv.reservedQuantity = sumOf(inv.reservations);
  inv.inTransitQuantity = sumOf(inv.inTransitStock);
  if (inv.reservedQuantity > inv.totalQuantity) {
    throw conflict(
      `product ${inv.productId} at site ${inv.siteId}: ${inv.reservedQuantity} reserved but only ${inv.totalQuantity} in stock`,
    );
  }
  inv.availableQuantity = round4(inv.totalQuantity - inv.reservedQuantity);
  const min = inv.minimum === null || inv.minimum === undefined ? null : Number(inv.minimum);
  inv.status =
    inv.availableQuantity <= 0
      ? StockStatus.OUT_OF_STOCK
      : min !== null && inv.availableQuantity <= min
        ? StockStatus.LOW_STOCK
        : StockStatus.IN_STOCK;
}

export interface Receipt {
  batchNumber?: string | null;
  locationId?: string | null;
  quantity: number;
  price: number;
  stockSource?: StockSource | null;
  originalPurchaseOrderId?: string | null;
  expirationDate?: Date | string | null;
  productionDate?: Date | string | null;
}

/** What a take removed from one batch: enough to bring the same stock in elsewhere. */
export interface TakenPiece {
  batchNumber: string | null;
  locationId: string | null;
  expirationDate: Date | null;
  productionDate: Date | null;
  unitPrice: number;
  quantity: number;
}

/** Whether a batch is past its expiration date at `now`: never offered for use any more. */
export const isExpired = (b: { expirationDate?: Date | string | null }, now: Date): boolean =>
  !!b.expirationDate && new Date(b.expirationDate).getTime() <= now.getTime();

const time = (d: Date | null | undefined) => (d ? new Date(d).getTime() : Number.POSITIVE_INFINITY);

/** First expiring first; then oldest stock; batches without dates last. */
export function fefo(a: StockBatch, b: StockBatch): number {
  return (
    time(a.expirationDate) - time(b.expirationDate) ||
    time(a.lastStockDate) - time(b.lastStockDate) ||
    time(a.created) - time(b.created) ||
    a.id.localeCompare(b.id)
  );
}

export class StockLedger {
  readonly added: StockBatch[] = [];
  readonly removed: StockBatch[] = [];
  private readonly now = new Date();

  constructor(
    readonly inventory: StockInventory,
    private readonly stored: StockBatch[],
  ) {}

  /** The batches as they stand after the changes made so far. */
  get batches(): StockBatch[] {
    return [...this.stored.filter((b) => !this.removed.includes(b)), ...this.added];
  }

  batch(
    batchNumber: string | null | undefined,
    locationId: string | null | undefined,
  ): StockBatch | undefined {
    return this.batches.find(
      (b) =>
        (b.batchNumber ?? null) === (batchNumber ?? null) && (b.locationId ?? null) === (locationId ?? null),
    );
  }

  private newBatch(batchNumber: string | null, locationId: string | null, source: StockSource | null) {
    const b = new StockBatch();
    Object.assign(b, {
      inventoryId: this.inventory.id,
      siteId: this.inventory.siteId,
      productId: this.inventory.productId,
      batchNumber,
      locationId,
      stockSource: source,
      quantity: 0,
      unitPrice: 0,
    });
    this.added.push(b);
    return b;
  }

  /** Stock comes in: merged into the batch with the same number and location, or a new one. */
  receive(r: Receipt): void {
    const b =
      this.batch(r.batchNumber, r.locationId) ??
      this.newBatch(r.batchNumber ?? null, r.locationId ?? null, r.stockSource ?? null);
    const quantity = round4(Number(b.quantity) + r.quantity);
    b.unitPrice = round4((Number(b.quantity) * Number(b.unitPrice) + r.quantity * r.price) / quantity);
    b.quantity = quantity;
    b.lastStockDate = this.now;
    if (r.stockSource) b.stockSource = r.stockSource;
    if (r.originalPurchaseOrderId) b.originalPurchaseOrderId = r.originalPurchaseOrderId;
    if (r.expirationDate) b.expirationDate = new Date(r.expirationDate);
    if (r.productionDate) b.productionDate = new Date(r.productionDate);
  }

  /** The batches that may be taken or reserved: those not past their expiration date. */
  private usable(): StockBatch[] {
    return this.batches.filter((b) => !isExpired(b, this.now));
  }

  /** What may still be taken or reserved: the unexpired stock less what is reserved. */
  available(): number {
    return round4(sumOf(this.usable()) - sumOf(this.inventory.reservations));
  }

  private shortage(quantity: number, available: number): Error {
    return conflict(
      `only ${Math.max(available, 0)} of product ${this.inventory.productId} available at site ${this.inventory.siteId}; ${quantity} asked`,
    );
  }

  /**
   * Stock goes out, first-expiring unexpired batches first; never more than is available (409).
   * Answers what was taken from which batch.
   */
  take(quantity: number): TakenPiece[] {
    const available = this.available();
    if (quantity > available) throw this.shortage(quantity, available);
    return this.removeFefo(quantity, this.usable());
  }

  /**
   * Reserves `quantity` for `sourceId` (replacing what it held), stamped by `by`; 409 when the
   * unexpired stock not reserved by others does not cover it.
   */
  reserve(type: ReservationType, sourceId: string, quantity: number, by: string): void {
    const held = this.release(sourceId);
    const available = this.available();
    if (quantity > available) throw this.shortage(quantity, available);
    const now = this.now.toISOString();
    this.inventory.reservations = [
      ...this.inventory.reservations,
      {
        reservationType: type,
        reservationSourceId: sourceId,
        quantity,
        created: held?.created ?? now,
        createdBy: held?.createdBy ?? by,
        updated: now,
        updatedBy: by,
      },
    ];
  }

  /** Ends the reservation of `sourceId`; answers it (undefined when it held none). */
  release(sourceId: string): StockReservation | undefined {
    const held = this.inventory.reservations.find((r) => r.reservationSourceId === sourceId);
    if (held) this.inventory.reservations = this.inventory.reservations.filter((r) => r !== held);
    return held;
  }

  /** Changes the stock on its way to the site by `transferId` by `delta` (an entry at zero goes). */
  inTransit(transferId: string, delta: number, by: string): void {
    const now = this.now.toISOString();
    const entry = this.inventory.inTransitStock.find((t) => t.transferId === transferId);
    const quantity = round4(Number(entry?.quantity ?? 0) + delta);
    if (quantity < 0)
      throw conflict(
        `only ${entry?.quantity ?? 0} of product ${this.inventory.productId} is in transit by ${transferId}`,
      );
    const rest = this.inventory.inTransitStock.filter((t) => t !== entry);
    this.inventory.inTransitStock =
      quantity > 0
        ? [
            ...rest,
            {
              transferId,
              quantity,
              created: entry?.created ?? now,
              createdBy: entry?.createdBy ?? by,
              updated: now,
              updatedBy: by,
            },
          ]
        : rest;
  }

  private removeFefo(quantity: number, from: StockBatch[] = this.batches): TakenPiece[] {
    const taken: TakenPiece[] = [];
    let left = quantity;
    for (const b of [...from].sort(fefo)) {
      if (left <= 0) break;
      const used = Math.min(Number(b.quantity), left);
      taken.push({
        batchNumber: b.batchNumber ?? null,
        locationId: b.locationId ?? null,
        expirationDate: b.expirationDate ? new Date(b.expirationDate) : null,
        productionDate: b.productionDate ? new Date(b.productionDate) : null,
        unitPrice: Number(b.unitPrice),
        quantity: round4(used),
      });
      this.setBatchQuantity(b, round4(Number(b.quantity) - used));
      left = round4(left - used);
    }
    return taken;
  }

  /** A batch's new quantity; a batch that reaches zero is removed. */
  setBatchQuantity(b: StockBatch, quantity: number): void {
    if (quantity > 0) {
      b.quantity = quantity;
      return;
    }
    const i = this.added.indexOf(b);
    if (i >= 0) this.added.splice(i, 1);
    else this.removed.push(b);
  }

  /**
   * A stock count: the batches are made to sum to `quantity`. A surplus goes into the batch with
   * no number and no location (made with source ADJUSTMENT when there is none); a shortfall is
   * taken from the batches first-expiring first. A new price re-values every batch.
   */
  setTotal(quantity: number, price?: number | null): void {
    const reserved = sumOf(this.inventory.reservations);
    if (quantity < reserved) {
      throw conflict(
        `product ${this.inventory.productId}: ${reserved} is reserved; the quantity cannot go below it`,
      );
    }
    const current = this.totalOfBatches();
    if (quantity > current) {
      const b = this.batch(null, null) ?? this.newBatch(null, null, StockSource.ADJUSTMENT);
      const added = round4(quantity - current);
      const p = price ?? Number(this.inventory.unitPrice);
      b.unitPrice = round4(
        (Number(b.quantity) * Number(b.unitPrice) + added * p) / (Number(b.quantity) + added),
      );
      b.quantity = round4(Number(b.quantity) + added);
      b.lastStockDate = this.now;
    } else if (quantity < current) {
      this.removeFefo(round4(current - quantity));
    }
    if (price !== undefined && price !== null) {
      for (const b of this.batches) b.unitPrice = price;
      this.inventory.unitPrice = price;
    }
  }

  private totalOfBatches(): number {
    return sumOf(this.batches);
  }

  /** Brings the inventory's figures in line with its batches and lists. */
  recompute(): void {
    const inv = this.inventory;
    const batches = this.batches;
    inv.totalQuantity = sumOf(batches);
    if (inv.totalQuantity > 0) {
      inv.unitPrice = round4(
        batches.reduce((s, b) => s + Number(b.quantity) * Number(b.unitPrice), 0) / inv.totalQuantity,
      );
    }
    recomputeDerived(inv);
  }

  /** Appends an UPDATE event with a description of what changed (the values, not just the names). */
  note(description: string): void {
    noteChange(this.inventory, description);
  }
}

/** Whether the caller may see a record of this subsidiary (docs/conventions.md, "Permissions" (data scope)). */
export function inScope(caller: Caller, subsidiaryId: string | null | undefined): boolean {
  return !subsidiaryId || caller.hasFullAccess || caller.subsidiaryAccess.includes(subsidiaryId);
}

async function lockRow(ctx: Context, siteId: string, productId: string): Promise<StockInventory | null> {
  return ctx.em.findOne(
    StockInventory,
    { siteId, productId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
}

/** Inserts `inv` unless its (site, product) exists; true when this call made it. */
async function insertIfAbsent(ctx: Context, inv: StockInventory): Promise<boolean> {
  const actor = actorOf(ctx.em);
  if (!actor) throw new Error('stock changes need a tenant-bound EntityManager');
  const now = new Date();
  // The insert bypasses the unit of work, so it stamps what the tenancy subscriber would.
  Object.assign(inv, {
    tenantId: actor.tenantId,
    created: now,
    updated: now,
    createdBy: actor.email,
    updatedBy: actor.email,
    version: 1,
  });
  const meta = ctx.em.getMetadata().get(StockInventory.name);
  const data: Record<string, unknown> = {};
  for (const prop of meta.props)
    if (prop.persist !== false) data[prop.name] = inv[prop.name as keyof StockInventory];
  const result = await (ctx.em as SqlEntityManager)
    .createQueryBuilder(StockInventory)
    .insert(data as never)
    .onConflict(['tenantId', 'siteId', 'productId'])
    .ignore()
    .execute('run');
  return result.affectedRows === 1;
}

/** The outbox row of an inventory made by insertIfAbsent (stamped as the tenancy subscriber would). */
function createdEvent(ctx: Context, inv: StockInventory, at: Date): OutboxEvent {
  const actor = actorOf(ctx.em)!;
  return outboxRow({
    tenantId: inv.tenantId,
    type: eventName(StockInventory.name, EventType.CREATE),
    resourceType: resourceName(StockInventory.name),
    resourceId: inv.id,
    occurredAt: at,
    actor: { userId: actor.userId, email: actor.email },
    data: recordData(inv),
  });
}

export interface StockPlace {
  siteId: string;
  productId: string;
  /** The subsidiary a newly made inventory belongs to. */
  subsidiaryId: string | null;
}

/**
 * Runs `change` on the locked stock of a product at a site and stores the result. When there is no
 * inventory yet, `create` says whether to make one (else `missing` is thrown). `change` may run
 * twice (when another request creates the row meanwhile), so it must only act on the ledger.
 * Must run inside a transaction (inTransaction).
 */
export async function changeStock(
  ctx: Context,
  place: StockPlace,
  options: { create: boolean; missing?: () => Error },
  change: (ledger: StockLedger) => void,
): Promise<StockInventory> {
  if (!ctx.em.isInTransaction()) throw new Error('changeStock must run inside a transaction');
  let inv = await lockRow(ctx, place.siteId, place.productId);
  if (!inv) {
    if (!options.create) {
      throw (
        options.missing ?? (() => notFound(`no stock of product ${place.productId} at site ${place.siteId}`))
      )();
    }
    const fresh = new StockInventory();
    Object.assign(fresh, {
      siteId: place.siteId,
      productId: place.productId,
      subsidiaryId: place.subsidiaryId,
    });
    const ledger = new StockLedger(fresh, []);
    change(ledger);
    ledger.recompute();
    if (await insertIfAbsent(ctx, fresh)) {
      // The insert bypassed the unit of work, and with it the history and the outbox: its
      // entries and its event go in here.
      const actor = actorOf(ctx.em)!;
      const created = historyEntry(actor, {
        recordType: StockInventory.name,
        recordId: fresh.id,
        type: HistoryType.CREATE,
        description: 'Created StockInventory',
        changes: fieldChanges(
          ctx.em.getMetadata().get(StockInventory.name),
          undefined,
          fresh as unknown as Record<string, unknown>,
          ctx.em.getPlatform(),
        ),
      });
      ctx.em.persist(created);
      for (const note of takeNotes(fresh))
        ctx.em.persist(
          historyEntry(actor, {
            recordType: StockInventory.name,
            recordId: fresh.id,
            type: HistoryType.UPDATE,
            description: note,
            changes: null,
          }),
        );
      ctx.em.persist(createdEvent(ctx, fresh, created.occurredAt));
      for (const b of ledger.added) ctx.em.persist(b);
      await ctx.em.flush();
      return (await lockRow(ctx, place.siteId, place.productId))!;
    }
    // Another request made the row meanwhile; it is committed now, so lock it and start over.
    inv = await lockRow(ctx, place.siteId, place.productId);
    if (!inv) throw conflict(`the stock of product ${place.productId} changed concurrently; retry`);
  }
  if (!inScope(callerOf(ctx), inv.subsidiaryId)) {
    throw notFound(`no stock of product ${place.productId} at site ${place.siteId}`);
  }
  const batches = await ctx.em.find(StockBatch, { inventoryId: inv.id }, { refresh: true });
  const ledger = new StockLedger(inv, batches);
  change(ledger);
  ledger.recompute();
  for (const b of ledger.added) ctx.em.persist(b);
  for (const b of ledger.removed) ctx.em.remove(b);
  await ctx.em.flush();
  return inv;
}
