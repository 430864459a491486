import { wrap } from '@mikro-orm/core';
import type { Context } from '../../context';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict } from '../../errors';
import type { WasteRecord } from './entities/waste-record';
import type { CreateWasteRecordInput, UpdateWasteRecordInput } from './api/waste-record-inputs';
import { StockSource } from './entities/stock-batch';
import { changeStock } from './stock-ledger';

export type WasteInput = Partial<CreateWasteRecordInput & UpdateWasteRecordInput>;

/** What a deduction was made from; once made it is final (correct the stock with an adjustment). */
const DEDUCTED_FROM = ['productId', 'stockSiteId', 'quantity'] as const;

/**
 * Whether the stock was already deducted for this record; if so, what it was deducted from
 * cannot change (409 naming the fields), nor can the deduction be turned off.
 */
export function checkDeductionFinal(w: WasteRecord, input: WasteInput, isNew: boolean): boolean {
  const original = isNew
    ? undefined
    : (wrap(w, true).__originalEntityData as Partial<WasteRecord> | undefined);
  const deducted = original?.deductRawMaterials === true;
  if (deducted) {
    const same = (k: (typeof DEDUCTED_FROM)[number]) =>
      k === 'quantity'
        ? Number(input.quantity) === Number(original?.quantity)
        : (input[k] ?? null) === (original?.[k] ?? null);
    const changed: string[] = DEDUCTED_FROM.filter((k) => input[k] !== undefined && !same(k));
    if (input.deductRawMaterials === false) changed.push('deductRawMaterials');
    if (changed.length > 0) {
      throw conflict(
        `the stock was already deducted for this waste record; ${changed.join(', ')} cannot change`,
      );
    }
  }
  return deducted;
}

/**
 * Takes the record's quantity out of the stock of its site in the same transaction (409 when
 * not enough is available): on create, or when an update turns deductRawMaterials on.
 */
export async function deductWaste(ctx: Context, w: WasteRecord): Promise<void> {
  if (!w.stockSiteId) throw badRequest('stockSiteId is needed to deduct raw materials');
  const quantity = Number(w.quantity);
  await inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: w.stockSiteId!, productId: w.productId, subsidiaryId: null },
      {
        create: false,
        missing: () =>
          conflict(`no stock of product ${w.productId} at site ${w.stockSiteId} to deduct ${quantity} from`),
      },
      (ledger) => {
        ledger.take(quantity);
        ledger.note(`Deducted ${quantity} as waste (waste record ${w.id})`);
      },
    ),
  );
}

/**
 * A deleted waste record that deducted stock gives it back, in the delete's transaction: into the
 * site's batch without number or location (made with source RETURN), at the current valuation,
 * since which batches the deduction emptied is not kept. A restored one takes it again (409 when
 * it is no longer available, and the record stays deleted).
 */
export async function returnWaste(ctx: Context, w: WasteRecord, direction: 'give back' | 'take again') {
  if (!w.deductRawMaterials || !w.stockSiteId) return;
  const quantity = Number(w.quantity);
  await inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: w.stockSiteId!, productId: w.productId, subsidiaryId: w.subsidiaryId ?? null },
      {
        create: direction === 'give back',
        missing: () =>
          conflict(`no stock of product ${w.productId} at site ${w.stockSiteId} to deduct ${quantity} from`),
      },
      (ledger) => {
        if (direction === 'give back') {
          ledger.receive({
            quantity,
            price: Number(ledger.inventory.unitPrice),
            stockSource: StockSource.RETURN,
          });
          ledger.note(`Gave back ${quantity} deducted by deleted waste record ${w.id}`);
        } else {
          ledger.take(quantity);
          ledger.note(`Deducted ${quantity} again for restored waste record ${w.id}`);
        }
      },
    ),
  );
}
