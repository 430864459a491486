import { callerOf, type Context } from '../../../context';
import { type StockSource } from '../entities/stock-batch';
import { StockInventory } from '../entities/stock-inventory';
import { badRequest } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { changeStock } from '../stock-ledger';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { inventoryService } from './inventory-service';

/** Receiving stock (POST /inventory). */

export interface StockLine {
  productId: string;
  quantity: number;
  price?: number | null;
  batchNumber?: string | null;
  locationId?: string | null;
  originalPurchaseOrderId?: string | null;
  stockSource?: StockSource | null;
}

/**
 * Adds the lines to the stock of a site: per product, in one transaction, each product's
 * inventory locked (made when missing). Products are locked in id order, so two requests over
 * the same products cannot deadlock. Returns one inventory per product, in the order the
 * products first appear in the request.
 */
export async function addStock(
  ctx: Context,
  input: { stockSiteId: string; subsidiaryId?: string | null; products: StockLine[] },
): Promise<StockInventory[]> {
  if (input.products.length === 0) throw badRequest('products: at least one product is needed');
  input.products.forEach((line, i) => {
    if (!(line.quantity > 0)) throw badRequest(`products[${i}].quantity must be greater than 0`);
    if (line.price != null && line.price < 0) throw badRequest(`products[${i}].price must not be negative`);
  });
  const site = await siteOrFail(ctx, input.stockSiteId);
  const subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  inventoryService.checkScopeValue(callerOf(ctx), subsidiaryId);
  const known = await productsOrFail(
    ctx,
    input.products.map((l) => l.productId),
  );
  const order = [...new Set(input.products.map((l) => l.productId))];
  const result = new Map<string, StockInventory>();
  await inTransaction(ctx.em, async () => {
    for (const productId of [...order].sort()) {
      const lines = input.products.filter((l) => l.productId === productId);
      const inv = await changeStock(
        ctx,
        { siteId: site.id, productId, subsidiaryId },
        { create: true },
        (ledger) => {
          for (const line of lines) {
            ledger.receive({
              ...line,
              // Without a price, the stock comes in at what it is valued at now (or the list price).
              price:
                line.price ??
                (ledger.inventory.totalQuantity > 0
                  ? Number(ledger.inventory.unitPrice)
                  : Number(known.get(productId)!.unitPrice ?? 0)),
            });
          }
        },
      );
      result.set(productId, inv);
    }
  });
  return order.map((id) => result.get(id)!);
}
