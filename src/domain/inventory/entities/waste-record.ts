import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { ImageRef } from '../../../entities/shared';
import {
  BooleanColumn,
  DecimalColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

/** What WasteRecord fields mean, shared with the inputs that set them. */
export const WASTE_RECORD_DOCS = {
  productId: 'Id of the product wasted; fixed once deducted.',
  quantity: 'Quantity wasted; fixed once deducted.',
  reason: 'Why it was wasted.',
  stockSiteId: 'Id of the stock site; fixed once deducted.',
  shiftId: 'Id of the shift in which it was wasted.',
  subsidiaryId: 'Id of the subsidiary; limits who sees the record.',
  approvedBy: 'Who approved the write-off.',
  image: 'Picture of the waste.',
  deductRawMaterials:
    "True to take the quantity from the site's available stock (first-expiring-first) in the same transaction; not enough stock is a 409.",
} as const;

/**
 * A quantity of a product registered as waste (production). When `deductRawMaterials` is true the
 * quantity was taken out of the stock of `stockSiteId` in the transaction that stored the record.
 */
@Entity({ tableName: 'waste_record' })
@TenantIndexes('waste_record', 'productId', 'shiftId', 'stockSiteId', 'subsidiaryId', 'reason', 'created')
@ObjectType({ description: 'A quantity of a product registered as waste.' })
export class WasteRecord extends Audited {
  @TextColumn({ description: WASTE_RECORD_DOCS.approvedBy })
  approvedBy?: string | null;

  @UuidColumn({ nullable: false, description: WASTE_RECORD_DOCS.productId })
  productId!: string;

  @TextColumn({ description: WASTE_RECORD_DOCS.reason })
  reason?: string | null;

  @UuidColumn({ description: WASTE_RECORD_DOCS.shiftId })
  shiftId?: string | null;

  @UuidColumn({ description: WASTE_RECORD_DOCS.stockSiteId })
  stockSiteId?: string | null;

  @UuidColumn({ description: WASTE_RECORD_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @DecimalColumn(14, 4, { nullable: false, description: WASTE_RECORD_DOCS.quantity })
  quantity!: number;

  @BooleanColumn({ nullable: false, description: WASTE_RECORD_DOCS.deductRawMaterials })
  deductRawMaterials: boolean = false;

  @JsonColumn(() => ImageRef, { description: WASTE_RECORD_DOCS.image })
  image?: ImageRef | null;
}
