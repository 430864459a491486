import { callerOf, type Context } from '../../context';
import { badRequest, conflict } from '../../errors';
import { IncomingTransferStatus, type StockTransfer, TransferStatus } from './entities/stock-transfer';
import { perProduct, round4, unitRates } from './quantities';
import { changeStock } from './stock-ledger';

/** The longest reason kept: a sentence or two, not a report. */
export const WRITE_OFF_REASON_CHARS = 500;

/** The statuses with stock on its way: the only ones whose remainder can be written off. */
const IN_TRANSIT: readonly TransferStatus[] = [TransferStatus.SHIPPED, TransferStatus.PARTIALLY_DELIVERED];

/**
 * Writes off what a shipped transfer still has in transit (lost or damaged on the way) and closes
 * it. The remainder of each product is what was shipped less what was delivered, in base units;
 * it leaves the destination's `inTransitStock` under that inventory's row lock (so a delivery or
 * another write-off racing this one finds it gone and is refused), and since the source gave it up
 * at shipping it is then in no site's figures: the stock across sites plus in transit falls by
 * exactly `writtenOff.products`. The transfer becomes CLOSED and can change no more. Must run in
 * the caller's transaction, with the transfer's row locked; the caller flushes the transfer.
 */
export async function writeOffInTransit(ctx: Context, t: StockTransfer, reason: string): Promise<void> {
  const why = reason.trim();
  if (!why) throw badRequest('reason: say why the stock in transit is written off');
  if (why.length > WRITE_OFF_REASON_CHARS)
    throw badRequest(`reason: at most ${WRITE_OFF_REASON_CHARS} characters`);
  if (!IN_TRANSIT.includes(t.status))
    throw conflict(
      `transfer ${t.transferNumber} is ${t.status}; only a SHIPPED or PARTIALLY_DELIVERED transfer has stock in transit to write off`,
    );
  const to = t.destinationStockSiteId;
  if (!to) throw conflict(`transfer ${t.transferNumber} has no destination`);
  const rate = unitRates(t.products);
  const shipped = perProduct(t.batchAllocations);
  const delivered = perProduct(t.deliveredProducts);
  const left = [...shipped]
    .map(([productId, q]) => ({
      productId,
      base: round4(q - round4((delivered.get(productId) ?? 0) * (rate.get(productId) ?? 1))),
    }))
    .filter((l) => l.base > 0)
    .sort((a, b) => a.productId.localeCompare(b.productId));
  const by = callerOf(ctx).email;
  // One site, so (site, product) order is product order: the order every transfer step locks in.
  for (const { productId, base } of left)
    await changeStock(
      ctx,
      { siteId: to, productId, subsidiaryId: null },
      { create: false, missing: () => conflict(`no stock of product ${productId} at site ${to}`) },
      (ledger) => {
        ledger.inTransit(t.id, -base, by);
        ledger.note(`Wrote off ${base} in transit by transfer ${t.transferNumber}: ${why}`);
      },
    );
  t.writtenOff = {
    reason: why,
    writtenOffAt: new Date().toISOString(),
    writtenOffBy: by,
    products: left.map(({ productId, base }) => ({
      productId,
      quantity: round4(base / (rate.get(productId) ?? 1)),
      unit: t.products.find((l) => l.productId === productId)?.unit ?? null,
    })),
  };
  t.status = TransferStatus.CLOSED;
  if (delivered.size === 0 || [...delivered.values()].every((q) => q <= 0))
    t.incomingStockTransferStatus = IncomingTransferStatus.CANCELLED;
}
