import { callerOf, type Context } from '../../../context';
import { StockInventory } from '../entities/stock-inventory';
import { round4 } from '../quantities';
import { badRequest, notFound } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { changeStock } from '../stock-ledger';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { inventoryService } from './inventory-service';

/** Adjusting (POST /inventory/adjust) and changing one batch (PUT /inventory/batches). */

/** A quantity as the history notes write it: rounded to four places, or "null". */
const fmt = (n: number | null | undefined) =>
  n === null || n === undefined ? 'null' : String(round4(Number(n)));

export async function adjustStock(
  ctx: Context,
  input: { productId: string; stockSiteId: string; newQuantity: number; newUnitPrice?: number | null },
): Promise<StockInventory> {
  if (!(input.newQuantity >= 0)) throw badRequest('newQuantity must not be negative');
  if (input.newUnitPrice != null && input.newUnitPrice < 0)
    throw badRequest('newUnitPrice must not be negative');
  const site = await siteOrFail(ctx, input.stockSiteId);
  await productsOrFail(ctx, [input.productId]);
  const subsidiaryId = subsidiaryAt(site, null);
  inventoryService.checkScopeValue(callerOf(ctx), subsidiaryId);
  return inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: site.id, productId: input.productId, subsidiaryId },
      { create: true },
      (ledger) => {
        const inv = ledger.inventory;
        const before = { quantity: Number(inv.totalQuantity), price: Number(inv.unitPrice) };
        ledger.setTotal(input.newQuantity, input.newUnitPrice);
        const parts = [`quantity ${fmt(before.quantity)} -> ${fmt(input.newQuantity)}`];
        if (input.newUnitPrice != null && input.newUnitPrice !== before.price) {
          parts.push(`unitPrice ${fmt(before.price)} -> ${fmt(input.newUnitPrice)}`);
        }
        ledger.note(`Adjusted ${parts.join(', ')}`);
      },
    ),
  );
}

export interface BatchChange {
  stockSiteId: string;
  productId: string;
  batchNumber?: string | null;
  locationId?: string | null;
  quantity?: number | null;
  expirationDate?: Date | null;
  productionDate?: Date | null;
}

/**
 * Changes one batch, named by site, product, batch number and location (an absent number or
 * location names the batch without one). Given fields change; a quantity of 0 removes the batch.
 */
export async function updateBatch(ctx: Context, dto: BatchChange): Promise<StockInventory> {
  if (dto.quantity != null && !(dto.quantity >= 0)) throw badRequest('quantity must not be negative');
  const site = await siteOrFail(ctx, dto.stockSiteId);
  await productsOrFail(ctx, [dto.productId]);
  const label = `batch ${dto.batchNumber ?? '(no number)'} at location ${dto.locationId ?? '(none)'}`;
  return inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: site.id, productId: dto.productId, subsidiaryId: null },
      { create: false, missing: () => notFound(`${label} of product ${dto.productId} does not exist`) },
      (ledger) => {
        const batch = ledger.batch(dto.batchNumber, dto.locationId);
        if (!batch) throw notFound(`${label} of product ${dto.productId} does not exist`);
        const changes: string[] = [];
        const day = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : 'null');
        if (dto.expirationDate != null && day(dto.expirationDate) !== day(batch.expirationDate)) {
          changes.push(`expirationDate ${day(batch.expirationDate)} -> ${day(dto.expirationDate)}`);
          batch.expirationDate = dto.expirationDate;
        }
        if (dto.productionDate != null && day(dto.productionDate) !== day(batch.productionDate)) {
          changes.push(`productionDate ${day(batch.productionDate)} -> ${day(dto.productionDate)}`);
          batch.productionDate = dto.productionDate;
        }
        if (dto.quantity != null && round4(dto.quantity) !== Number(batch.quantity)) {
          changes.push(`quantity ${fmt(batch.quantity)} -> ${fmt(dto.quantity)}`);
          ledger.setBatchQuantity(batch, round4(dto.quantity));
        }
        if (changes.length > 0) ledger.note(`Changed ${label}: ${changes.join(', ')}`);
      },
    ),
  );
}
