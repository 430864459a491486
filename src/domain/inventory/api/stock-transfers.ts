import type { Context } from '../../../context';
import { applyTransferInput, checkSites, transferNumber } from '../transfer-rules';
import { moveTransferStock, releaseTransferStock } from '../transfer-moves';
import { StockTransfer } from '../entities/stock-transfer';
import { defineGroup } from '../../../family/group';
import { nextNumber } from '../../../services/sequences';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { StockTransferInput } from './stock-transfer-inputs';

async function beforeSave(
  ctx: Context,
  t: StockTransfer,
  input: Partial<StockTransferInput>,
  isNew: boolean,
): Promise<void> {
  if (isNew) t.transferNumber = transferNumber(await nextNumber(ctx.em, 'stock-transfer'));
  checkSites(t);
  if (input.destinationStockSiteId)
    await siteOrFail(ctx, input.destinationStockSiteId, 'destinationStockSiteId');
  if (input.stockSiteId) {
    const site = await siteOrFail(ctx, input.stockSiteId);
    t.subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  }
  if (input.products)
    await productsOrFail(
      ctx,
      input.products.map((p) => p.productId).filter((id): id is string => !!id),
    );
  applyTransferInput(t, input);
  await moveTransferStock(ctx, t, isNew, input);
}

/**
 * The StockTransfer group. REST lists only its searches, CSV and delete; GraphQL has the whole
 * family, so a client can build and move a transfer along.
 */
export const stockTransfers = defineGroup({
  entity: StockTransfer,
  name: 'StockTransfer',
  plural: 'StockTransfers',
  resource: 'STOCK_TRANSFERS',
  createInput: StockTransferInput,
  updateInput: StockTransferInput,
  searchable: ['transferNumber', 'note'],
  scope: 'subsidiaryId',
  beforeSave,
  // A deleted transfer gives back what it reserved; one with stock in transit cannot go.
  async beforeDelete(ctx, rows) {
    for (const t of rows) await releaseTransferStock(ctx, t);
  },
});
