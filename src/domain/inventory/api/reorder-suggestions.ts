import type { FilterQuery } from '@mikro-orm/core';
import type { Context } from '../../../context';
import { badRequest } from '../../../errors';
import { isUuid } from '../../../limits';
import { StockStatus, type StockInventory } from '../entities/stock-inventory';
import { reorderQuantity } from '../reorder';
import { inventoryService } from './inventory-service';
import type { ReorderSuggestion } from './stock-view-types';

/** The caller's inventories at or below their minimum that need ordering, by site and product. */
export async function reorderSuggestions(ctx: Context, siteId?: string | null): Promise<ReorderSuggestion[]> {
  if (siteId && !isUuid(siteId)) throw badRequest(`siteId ${siteId} is not a UUID`);
  const where: FilterQuery<StockInventory> = {
    status: { $in: [StockStatus.LOW_STOCK, StockStatus.OUT_OF_STOCK] },
    minimum: { $ne: null },
    ...(siteId ? { siteId } : {}),
  };
  const rows = await inventoryService.list(ctx, where, [{ siteId: 'asc' }, { productId: 'asc' }]);
  return rows.flatMap((inv) => {
    const suggestedQuantity = reorderQuantity(inv);
    if (suggestedQuantity === null) return [];
    return [
      {
        inventoryId: inv.id,
        productId: inv.productId,
        siteId: inv.siteId,
        subsidiaryId: inv.subsidiaryId ?? null,
        availableQuantity: Number(inv.availableQuantity),
        inTransitQuantity: Number(inv.inTransitQuantity),
        minimum: Number(inv.minimum),
        maximum: inv.maximum === null || inv.maximum === undefined ? null : Number(inv.maximum),
        suggestedQuantity,
      },
    ];
  });
}
