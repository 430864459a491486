import { badRequest } from '../../errors';
import { type StockTransfer, type TransferProduct, TransferStatus } from './entities/stock-transfer';
import type { StockTransferInput } from './api/stock-transfer-inputs';
import { perProduct, round4, sumOf } from './quantities';

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

/**
 * Quantities must add up: nothing cancelled or delivered beyond what was ordered, nothing returned
 * beyond what was delivered. (What was picked is the service's: transfer-moves.ts.)
 */
function checkQuantities(t: StockTransfer): void {
  const ordered = perProduct(t.products);
  const cancelled = perProduct(t.cancelledProducts.products);
  const delivered = perProduct(t.deliveredProducts);
  const returned = perProduct(t.returnedProducts);
  const check = (what: string, amounts: Map<string, number>, limit: (id: string) => number, of: string) => {
    for (const [id, q] of amounts) {
      if (q > limit(id))
        throw badRequest(`${what}: ${q} of product ${id} is more than the ${limit(id)} ${of}`);
    }
  };
  const left = (id: string) => round4((ordered.get(id) ?? 0) - (cancelled.get(id) ?? 0));
  check('cancelledProducts', cancelled, (id) => ordered.get(id) ?? 0, 'ordered');
  check('deliveredProducts', delivered, left, 'ordered and not cancelled');
  check('returnedProducts', returned, (id) => delivered.get(id) ?? 0, 'delivered');
}

/** A transfer moves stock from one site to another. */
export function checkSites(t: StockTransfer): void {
  if (t.stockSiteId && t.stockSiteId === t.destinationStockSiteId)
    throw badRequest('destinationStockSiteId must differ from stockSiteId');
}

/**
 * What a transfer stores of its input: product lines with their amounts, the lists as given, the
 * cancelled products with their flag; then the quantities must add up, and a transfer whose every
 * product is cancelled (or that is CANCELLED) is fully cancelled.
 */
export function applyTransferInput(t: StockTransfer, input: Partial<StockTransferInput>): void {
  if (input.products) t.products = input.products.map(withAmounts);
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
