import { ID } from 'type-graphql';
import { wrap } from '@mikro-orm/core';
import type { Context } from '../../context';
import { WasteRecord } from '../../entities/inventory/waste-record';
import { badRequest, conflict } from '../../errors';
import { defineGroup } from '../../family/group';
import { inTransaction } from '../../db/transaction';
import { changeStock } from '../../domain/inventory/stock-ledger';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { CreateWasteRecordInput, UpdateWasteRecordInput } from './waste-record-inputs';

type WasteInput = Partial<CreateWasteRecordInput & UpdateWasteRecordInput>;

/** What a deduction was made from; once made it is final (correct the stock with an adjustment). */
const DEDUCTED_FROM = ['productId', 'stockSiteId', 'quantity'] as const;

/**
 * Checks the product and site, takes the subsidiary from the site, and, when the record asks
 * for it (on create, or when an update turns deductRawMaterials on), takes the quantity out of the
 * stock of its site in the same transaction (409 when not enough is available).
 */
async function beforeSave(ctx: Context, w: WasteRecord, input: WasteInput, isNew: boolean): Promise<void> {
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
  if (isNew || input.productId !== undefined) await productsOrFail(ctx, [w.productId]);
  if (isNew || input.stockSiteId !== undefined || input.subsidiaryId !== undefined) {
    const site = w.stockSiteId ? await siteOrFail(ctx, w.stockSiteId) : null;
    w.subsidiaryId = subsidiaryAt(site, input.subsidiaryId ?? (site ? null : w.subsidiaryId));
  }
  if (w.deductRawMaterials && !deducted) {
    if (!w.stockSiteId) throw badRequest('stockSiteId is needed to deduct raw materials');
    const quantity = Number(w.quantity);
    await inTransaction(ctx.em, () =>
      changeStock(
        ctx,
        { siteId: w.stockSiteId!, productId: w.productId, subsidiaryId: null },
        {
          create: false,
          missing: () =>
            conflict(
              `no stock of product ${w.productId} at site ${w.stockSiteId} to deduct ${quantity} from`,
            ),
        },
        (ledger) => {
          ledger.take(quantity);
          ledger.note(`Deducted ${quantity} as waste (waste record ${w.id})`);
        },
      ),
    );
  }
}

export const wasteRecords = defineGroup({
  entity: WasteRecord,
  name: 'WasteRecord',
  plural: 'WasteRecords',
  resource: 'WASTE',
  createInput: CreateWasteRecordInput,
  updateInput: UpdateWasteRecordInput,
  searchable: ['reason', 'approvedBy'],
  lists: [
    {
      name: 'wasteRecordsByShift',
      description: 'The waste records of a shift, oldest first.',
      field: 'shiftId',
      arg: 'shiftId',
      argDescription: 'Id of the shift.',
      type: () => ID,
    },
  ],
  scope: 'subsidiaryId',
  beforeSave,
});
