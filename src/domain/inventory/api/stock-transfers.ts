import type { Context } from '../../../context';
import { applyTransferInput, checkSites, transferNumber } from '../transfer-rules';
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
});
