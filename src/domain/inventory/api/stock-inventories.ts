import type { Context } from '../../../context';
import { StockBatch } from '../entities/stock-batch';
import { StockInventory } from '../entities/stock-inventory';
import { defineGroup } from '../../../family/group';
import { applyInventoryInput, type StockInventoryInput } from '../inventory-rules';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { CreateStockInventoryInput, UpdateStockInventoryInput } from './stock-inventory-inputs';

async function beforeSave(
  ctx: Context,
  inv: StockInventory,
  input: StockInventoryInput,
  isNew: boolean,
): Promise<void> {
  if (isNew) {
    const site = await siteOrFail(ctx, inv.siteId, 'siteId');
    await productsOrFail(ctx, [inv.productId]);
    inv.subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  }
  applyInventoryInput(ctx, inv, input);
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
