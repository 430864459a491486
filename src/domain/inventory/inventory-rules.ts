import { wrap } from '@mikro-orm/core';
import { callerOf, type Context } from '../../context';
import { badRequest } from '../../errors';
import { ReservationType, type StockInventory, type StockReservation } from './entities/stock-inventory';
import type { CreateStockInventoryInput, UpdateStockInventoryInput } from './api/stock-inventory-inputs';
import { recomputeDerived } from './stock-ledger';

export type StockInventoryInput = Partial<CreateStockInventoryInput & UpdateStockInventoryInput>;

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

/**
 * What an inventory stores of its input: limits that make sense, and the reservations a client
 * keeps (orders, production, other) stamped with who made and changed each entry. A transfer's
 * reservations and the stock in transit are the transfers' own (transfer-moves.ts): the input's
 * list replaces the client's entries and keeps the transfers'; naming a transfer there is a 400.
 * Then the derived quantities.
 */
export function applyInventoryInput(ctx: Context, inv: StockInventory, input: StockInventoryInput): void {
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
    if (input.reservations.some((r) => r.reservationType === ReservationType.TRANSFER))
      throw badRequest(
        'reservations: reservations of type TRANSFER are made by the stock transfers themselves',
      );
    const previous = before<StockReservation>('reservations');
    inv.reservations = [
      ...previous.filter((r) => r.reservationType === ReservationType.TRANSFER),
      ...stamp<StockReservation>(
        ctx,
        input.reservations.map((r) => ({ ...r })),
        previous,
        (r) => `${r.reservationType ?? ''}:${r.reservationSourceId ?? ''}`,
      ),
    ];
  }
  recomputeDerived(inv);
}
