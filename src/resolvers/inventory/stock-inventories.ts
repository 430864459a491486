import { wrap } from '@mikro-orm/core';
import { callerOf, type Context } from '../../context';
import { StockBatch } from '../../entities/inventory/stock-batch';
import {
  StockInventory,
  type InTransitStock,
  type StockReservation,
} from '../../entities/inventory/stock-inventory';
import { badRequest } from '../../errors';
import { defineGroup } from '../../family/group';
import { recomputeDerived } from '../../domain/inventory/stock-ledger';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { CreateStockInventoryInput, UpdateStockInventoryInput } from './stock-inventory-inputs';

type Stamped = {
  created?: string | null;
  createdBy?: string | null;
  updated?: string | null;
  updatedBy?: string | null;
  quantity?: number | null;
};

/**
 * Stamps list entries with who made and last changed them: an entry that matches an earlier one
 * (same key) keeps its creation stamp, and its update stamp unless its quantity changed.
 */
function stamp<T extends Stamped>(ctx: Context, next: T[], previous: T[], key: (e: T) => string): T[] {
  const now = new Date().toISOString();
  const by = callerOf(ctx).email;
  const earlier = new Map(previous.map((e) => [key(e), e]));
  return next.map((entry) => {
    const before = earlier.get(key(entry));
    const same = before && Number(before.quantity) === Number(entry.quantity);
    return {
      ...entry,
      quantity: Number(entry.quantity),
      created: before?.created ?? now,
      createdBy: before?.createdBy ?? by,
      updated: same ? before.updated : now,
      updatedBy: same ? before.updatedBy : by,
    };
  });
}

async function beforeSave(
  ctx: Context,
  inv: StockInventory,
  input: Partial<CreateStockInventoryInput & UpdateStockInventoryInput>,
  isNew: boolean,
): Promise<void> {
  if (isNew) {
    const site = await siteOrFail(ctx, inv.siteId, 'siteId');
    await productsOrFail(ctx, [inv.productId]);
    inv.subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  }
  if (inv.minimum != null && inv.maximum != null && Number(inv.minimum) > Number(inv.maximum)) {
    throw badRequest(`minimum (${inv.minimum}) must not exceed maximum (${inv.maximum})`);
  }
  const original = (wrap(inv, true).__originalEntityData ?? {}) as Record<string, unknown>;
  // The ORM keeps JSON columns of the loaded row either parsed or as their text.
  const before = <T>(name: string): T[] => {
    const value = original[name];
    const list = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(list) ? (list as T[]) : [];
  };
  if (input.reservations) {
    inv.reservations = stamp<StockReservation>(
      ctx,
      input.reservations.map((r) => ({ ...r })),
      before<StockReservation>('reservations'),
      (r) => `${r.reservationType ?? ''}:${r.reservationSourceId ?? ''}`,
    );
  }
  if (input.inTransitStock) {
    inv.inTransitStock = stamp<InTransitStock>(
      ctx,
      input.inTransitStock.map((t) => ({ ...t })),
      before<InTransitStock>('inTransitStock'),
      (t) => t.transferId ?? '',
    );
  }
  recomputeDerived(inv);
}

export const stockInventories = defineGroup({
  entity: StockInventory,
  name: 'StockInventory',
  plural: 'StockInventories',
  resource: 'INVENTORY',
  createInput: CreateStockInventoryInput,
  updateInput: UpdateStockInventoryInput,
  // An inventory has no text of its own; its status is the one thing a term can match.
  searchable: ['status'],
  scope: 'subsidiaryId',
  beforeSave,
  // Batches are the inventory's own rows: they go with it.
  async beforeDelete(ctx, rows) {
    await ctx.em.nativeDelete(StockBatch, { inventoryId: { $in: rows.map((r) => r.id) } });
  },
});
