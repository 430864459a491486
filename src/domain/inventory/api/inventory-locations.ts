import { type Context } from '../../../context';
import { StockBatch } from '../entities/stock-batch';
import { StockInventory } from '../entities/stock-inventory';
import { round4 } from '../quantities';
import { registerListSource } from '../../../family/links';
import { loaderManyBy } from '../../../family/loaders';
import { fefo } from '../stock-ledger';
import { stockLocationsSql } from '../stock-location-repository';
import type { StockLocation } from './stock-view-types';

/** Locations of an inventory (derived from its batches, one query per page). */

export async function locationsOf(ctx: Context, inv: StockInventory): Promise<StockLocation[]> {
  const batches = await loaderManyBy(ctx, StockBatch, 'inventoryId').load(inv.id);
  const byLocation = new Map<string | null, StockBatch[]>();
  for (const b of [...batches].sort(fefo)) {
    const key = b.locationId ?? null;
    if (!byLocation.has(key)) byLocation.set(key, []);
    byLocation.get(key)!.push(b);
  }
  const latest = (ds: (Date | null | undefined)[], pick: (a: number, b: number) => number) => {
    const times = ds.filter((d): d is Date => !!d).map((d) => new Date(d).getTime());
    return times.length ? new Date(times.reduce((x, y) => pick(x, y))) : null;
  };
  return [...byLocation.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([id, list]) => ({
      id,
      totalQuantity: round4(list.reduce((s, b) => s + Number(b.quantity), 0)),
      lastStockDate: latest(
        list.map((b) => b.lastStockDate),
        Math.max,
      ),
      earliestExpirationDate: latest(
        list.map((b) => b.expirationDate),
        Math.min,
      ),
      batches: list,
    }));
}

// The same locations in SQL, for searches on `locations.totalQuantity` and the other figures.
registerListSource('StockLocation', { elements: stockLocationsSql });
