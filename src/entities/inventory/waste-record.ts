import { DecimalType, Entity, Index, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';
import { ImageRef } from '../shared';

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
@Index({ name: 'waste_record_tenant_product_id_idx', properties: ['tenantId', 'productId'] })
@Index({ name: 'waste_record_tenant_shift_id_idx', properties: ['tenantId', 'shiftId'] })
@Index({ name: 'waste_record_tenant_stock_site_id_idx', properties: ['tenantId', 'stockSiteId'] })
@Index({ name: 'waste_record_tenant_subsidiary_id_idx', properties: ['tenantId', 'subsidiaryId'] })
@Index({ name: 'waste_record_tenant_reason_idx', properties: ['tenantId', 'reason'] })
@Index({ name: 'waste_record_tenant_created_idx', properties: ['tenantId', 'created'] })
@ObjectType({ description: 'A quantity of a product registered as waste.' })
export class WasteRecord extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.approvedBy })
  approvedBy?: string | null;

  @Property({ type: 'uuid' })
  @Field(() => String, { description: WASTE_RECORD_DOCS.productId })
  productId!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.reason })
  reason?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.shiftId })
  shiftId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.stockSiteId })
  stockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,4)' })
  @Field(() => Float, { description: WASTE_RECORD_DOCS.quantity })
  quantity!: number;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: WASTE_RECORD_DOCS.deductRawMaterials,
  })
  deductRawMaterials: boolean = false;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { nullable: true, description: WASTE_RECORD_DOCS.image })
  image?: ImageRef | null;
}
