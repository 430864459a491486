import { wrap } from '@mikro-orm/core';
import { Field, Float, InputType } from 'type-graphql';
import { IsOptional, IsPositive, IsUUID, Length } from 'class-validator';
import type { Context } from '../../context';
import { WasteRecord, WASTE_RECORD_DOCS } from '../../entities/inventory/waste-record';
import { ImageRef } from '../../entities/shared';
import { badRequest, conflict } from '../../errors';
import { defineGroup } from '../../family/group';
import { inTransaction } from '../../family/service';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { changeStock } from '../../domain/inventory/stock-ledger';

@InputType({ description: 'A quantity of a product registered as waste.' })
export class CreateWasteRecordInput {
  @Field(() => String, { description: WASTE_RECORD_DOCS.productId }) productId!: string;
  @Field(() => Float, { description: WASTE_RECORD_DOCS.quantity })
  @IsPositive()
  quantity!: number;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.reason })
  @IsOptional()
  @Length(0, 2000)
  reason?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.stockSiteId })
  stockSiteId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.shiftId })
  @IsOptional()
  @IsUUID()
  shiftId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.subsidiaryId })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.approvedBy })
  @IsOptional()
  @Length(0, 200)
  approvedBy?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Take the quantity out of the stock of stockSiteId.' })
  deductRawMaterials?: boolean | null;
  @Field(() => ImageRef, { nullable: true, description: WASTE_RECORD_DOCS.image }) image?: ImageRef | null;
}

@InputType({ description: 'Changes to a waste record; absent fields stay as they are.' })
export class UpdateWasteRecordInput {
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.productId })
  productId?: string;
  @Field(() => Float, { nullable: true, description: WASTE_RECORD_DOCS.quantity })
  @IsOptional()
  @IsPositive()
  quantity?: number;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.reason })
  @IsOptional()
  @Length(0, 2000)
  reason?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.stockSiteId })
  stockSiteId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.shiftId })
  @IsOptional()
  @IsUUID()
  shiftId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.subsidiaryId })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.approvedBy })
  @IsOptional()
  @Length(0, 200)
  approvedBy?: string | null;
  @Field(() => Boolean, {
    description: WASTE_RECORD_DOCS.deductRawMaterials,
    nullable: true,
  })
  deductRawMaterials?: boolean | null;
  @Field(() => ImageRef, { nullable: true, description: WASTE_RECORD_DOCS.image }) image?: ImageRef | null;
}

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
          ledger.note(ctx, `Deducted ${quantity} as waste (waste record ${w.id})`);
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
  scope: 'subsidiaryId',
  beforeSave,
});
