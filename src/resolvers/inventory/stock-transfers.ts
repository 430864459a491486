import type { Context } from '../../context';
import { perProduct, round4, sumOf } from '../../domain/inventory/quantities';
import { StockTransfer, TransferProduct, TransferStatus } from '../../entities/inventory/stock-transfer';
import { badRequest } from '../../errors';
import { defineGroup } from '../../family/group';
import { nextNumber } from '../../services/sequences';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { StockTransferInput } from './stock-transfer-inputs';

/** "ST-000001": six digits, more when the count outgrows them. */
export const transferNumber = (n: number) => `ST-${String(n).padStart(6, '0')}`;

/** A product line with its derived amounts: base quantity, base price and total. */
function withAmounts(line: TransferProduct): TransferProduct {
  const conversion = line.baseUnitConversion ?? 1;
  const quantity = line.quantity ?? 0;
  const price = line.pricePerUnit ?? null;
  return {
    productId: line.productId ?? null,
    unit: line.unit ?? null,
    quantity,
    baseUnitConversion: conversion,
    baseUnitQuantity: round4(quantity * conversion),
    pricePerUnit: price,
    pricePerBaseUnit: price === null || conversion === 0 ? null : round4(price / conversion),
    totalPrice: price === null ? null : round4(quantity * price),
  };
}

const plain = <T extends object>(items: readonly T[]): T[] => items.map((i) => ({ ...i }));

/** Quantities must add up: nothing cancelled, delivered or picked beyond what was ordered. */
function checkQuantities(t: StockTransfer): void {
  const ordered = perProduct(t.products);
  const cancelled = perProduct(t.cancelledProducts.products);
  const delivered = perProduct(t.deliveredProducts);
  const returned = perProduct(t.returnedProducts);
  const picked = perProduct(t.batchAllocations);
  const check = (what: string, amounts: Map<string, number>, limit: (id: string) => number, of: string) => {
    for (const [id, q] of amounts) {
      if (q > limit(id))
        throw badRequest(`${what}: ${q} of product ${id} is more than the ${limit(id)} ${of}`);
    }
  };
  const left = (id: string) => round4((ordered.get(id) ?? 0) - (cancelled.get(id) ?? 0));
  check('cancelledProducts', cancelled, (id) => ordered.get(id) ?? 0, 'ordered');
  check('batchAllocations', picked, left, 'ordered and not cancelled');
  check('deliveredProducts', delivered, left, 'ordered and not cancelled');
  check('returnedProducts', returned, (id) => delivered.get(id) ?? 0, 'delivered');
}

async function beforeSave(
  ctx: Context,
  t: StockTransfer,
  input: Partial<StockTransferInput>,
  isNew: boolean,
): Promise<void> {
  if (isNew) t.transferNumber = transferNumber(await nextNumber(ctx.em, 'stock-transfer'));
  if (t.stockSiteId && t.stockSiteId === t.destinationStockSiteId) {
    throw badRequest('destinationStockSiteId must differ from stockSiteId');
  }
  if (input.destinationStockSiteId)
    await siteOrFail(ctx, input.destinationStockSiteId, 'destinationStockSiteId');
  if (input.stockSiteId) {
    const site = await siteOrFail(ctx, input.stockSiteId);
    t.subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  }
  if (input.products) {
    await productsOrFail(
      ctx,
      input.products.map((p) => p.productId).filter((id): id is string => !!id),
    );
    t.products = input.products.map(withAmounts);
  }
  if (input.batchAllocations) t.batchAllocations = plain(input.batchAllocations);
  if (input.reservedProducts) t.reservedProducts = plain(input.reservedProducts);
  if (input.deliveredProducts) t.deliveredProducts = plain(input.deliveredProducts);
  if (input.returnedProducts) t.returnedProducts = plain(input.returnedProducts);
  const cancelled = plain(t.cancelledProducts?.products ?? []);
  t.cancelledProducts = { isNotEmpty: sumOf(cancelled) > 0, products: cancelled };
  checkQuantities(t);
  const ordered = perProduct(t.products);
  const cancelledBy = perProduct(cancelled);
  t.isFullyCancelled =
    t.status === TransferStatus.CANCELLED ||
    (ordered.size > 0 && [...ordered].every(([id, q]) => (cancelledBy.get(id) ?? 0) >= q));
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
