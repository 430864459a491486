import { SHIPPED_STATUSES, type StockTransfer } from './entities/stock-transfer';
import { perProduct, round4, unitRates } from './quantities';

/** Where one product of a transfer stands (GraphQL's TransferProductStatus). */
export interface TransferProductProgress {
  productId: string;
  quantityOrdered: number;
  quantityCancelled: number;
  quantityDelivered: number;
  quantityReturned: number;
  quantityPicked: number;
  quantityShipped: number;
  quantityPending: number;
  quantityCanBeCancelled: number;
  quantityReservedPicklist: number;
  quantityReservedUnassigned: number;
  finishedQuantity: number;
  unitPrice: number;
  returnStarted: boolean;
}

/**
 * The progress of each product of a transfer, from what the transfer stores:
 * ordered = its product lines; cancelled, delivered, returned = those lists; picked = its batch
 * allocations; shipped = what was picked, once the transfer has shipped (at least what was
 * delivered); pending = ordered - cancelled - delivered - written off; cancellable = what is
 * neither cancelled nor picked/shipped; reserved splits into what is already picked (picklist) and
 * the rest (unassigned); finished = delivered + cancelled + written off (a written-off quantity
 * will not arrive, so it is no longer pending).
 */
export function productStatusOf(t: StockTransfer): TransferProductProgress[] {
  const ordered = perProduct(t.products);
  const cancelled = perProduct(t.cancelledProducts?.products ?? []);
  const delivered = perProduct(t.deliveredProducts ?? []);
  const returned = perProduct(t.returnedProducts ?? []);
  const writtenOff = perProduct(t.writtenOff?.products ?? []);
  // Allocations and reservations are in base units, as the stock they move.
  const rate = unitRates(t.products);
  const inLineUnits = (base: Map<string, number>) =>
    new Map([...base].map(([id, q]) => [id, round4(q / (rate.get(id) ?? 1))]));
  const picked = inLineUnits(perProduct(t.batchAllocations));
  const reserved = inLineUnits(perProduct(t.reservedProducts));
  const shippedNow = SHIPPED_STATUSES.includes(t.status);
  return [...ordered.keys()].map((productId) => {
    const q = (m: Map<string, number>) => m.get(productId) ?? 0;
    const lines = t.products.filter((l) => l.productId === productId);
    const units = lines.reduce((s, l) => s + Number(l.quantity ?? 0), 0);
    const value = lines.reduce((s, l) => s + Number(l.quantity ?? 0) * Number(l.pricePerUnit ?? 0), 0);
    const shipped = shippedNow ? Math.max(q(picked), q(delivered)) : q(delivered);
    const reservedPicklist = Math.min(q(reserved), q(picked));
    return {
      productId,
      quantityOrdered: q(ordered),
      quantityCancelled: q(cancelled),
      quantityDelivered: q(delivered),
      quantityReturned: q(returned),
      quantityPicked: q(picked),
      quantityShipped: round4(shipped),
      quantityPending: round4(Math.max(0, q(ordered) - q(cancelled) - q(delivered) - q(writtenOff))),
      quantityCanBeCancelled: round4(Math.max(0, q(ordered) - q(cancelled) - Math.max(q(picked), shipped))),
      quantityReservedPicklist: round4(reservedPicklist),
      quantityReservedUnassigned: round4(Math.max(0, q(reserved) - reservedPicklist)),
      finishedQuantity: round4(Math.min(q(ordered), q(delivered) + q(cancelled) + q(writtenOff))),
      unitPrice: units > 0 ? round4(value / units) : Number(lines[0]?.pricePerUnit ?? 0),
      returnStarted: q(returned) > 0,
    };
  });
}
