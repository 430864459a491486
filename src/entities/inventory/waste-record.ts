import { DecimalType, Entity, Index, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';
import { ImageRef } from '../shared';

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
  @Field(() => String, { nullable: true, description: 'Who approved the write-off.' })
  approvedBy?: string | null;

  @Property({ type: 'uuid' })
  @Field(() => String, { description: 'Id of the product wasted; fixed once deducted.' })
  productId!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Why it was wasted.' })
  reason?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the shift in which it was wasted.' })
  shiftId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the stock site; fixed once deducted.' })
  stockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary; limits who sees the record.' })
  subsidiaryId?: string | null;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,4)' })
  @Field(() => Float, { description: 'Quantity wasted; fixed once deducted.' })
  quantity!: number;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description:
      "True to take the quantity from the site's available stock (first-expiring-first) in the same transaction; not enough stock is a 409.",
  })
  deductRawMaterials: boolean = false;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { nullable: true, description: 'Picture of the waste.' })
  image?: ImageRef | null;
}
