import { ID } from 'type-graphql';
import type { Context } from '../../../context';
import { WasteRecord } from '../entities/waste-record';
import { defineGroup } from '../../../family/group';
import { checkDeductionFinal, deductWaste, returnWaste, type WasteInput } from '../waste-rules';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { CreateWasteRecordInput, UpdateWasteRecordInput } from './waste-record-inputs';

/**
 * Checks the product and site, takes the subsidiary from the site, and, when the record asks
 * for it, takes the quantity out of the stock of its site (domain/inventory/waste-rules.ts).
 */
async function beforeSave(ctx: Context, w: WasteRecord, input: WasteInput, isNew: boolean): Promise<void> {
  const deducted = checkDeductionFinal(w, input, isNew);
  if (isNew || input.productId !== undefined) await productsOrFail(ctx, [w.productId]);
  if (isNew || input.stockSiteId !== undefined || input.subsidiaryId !== undefined) {
    const site = w.stockSiteId ? await siteOrFail(ctx, w.stockSiteId) : null;
    w.subsidiaryId = subsidiaryAt(site, input.subsidiaryId ?? (site ? null : w.subsidiaryId));
  }
  if (w.deductRawMaterials && !deducted) await deductWaste(ctx, w);
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
  // The stock a record deducted goes back when it is deleted, and is taken again on its restore.
  async beforeDelete(ctx, rows) {
    // In the order of (site, product), as every change of several inventories locks them.
    const ordered = [...rows].sort(
      (x, y) =>
        (x.stockSiteId ?? '').localeCompare(y.stockSiteId ?? '') || x.productId.localeCompare(y.productId),
    );
    for (const w of ordered) await returnWaste(ctx, w, 'give back');
  },
  beforeRestore: (ctx, w) => returnWaste(ctx, w, 'take again'),
});
