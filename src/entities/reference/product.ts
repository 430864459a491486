import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../tenant-scoped';
import { FileAsset, UnitOfMeasurement } from '../shared';

export enum ProductType {
  RAW_MATERIAL = 'RAW_MATERIAL',
  SEMI_FINISHED = 'SEMI_FINISHED',
  FINISHED_GOOD = 'FINISHED_GOOD',
  SERVICE = 'SERVICE',
}
registerEnumType(ProductType, {
  name: 'ProductType',
  description: 'What kind of product it is.',
  valuesConfig: {
    RAW_MATERIAL: { description: 'Used to make other products.' },
    SEMI_FINISHED: { description: 'Made, and used to make other products.' },
    FINISHED_GOOD: { description: 'Made to be sold.' },
    SERVICE: { description: 'A service, not stocked.' },
  },
});

/** What Product fields mean, shared with the inputs that set them. */
export const PRODUCT_DOCS = {
  name: 'Name of the product.',
  brand: 'Brand of the product.',
  category: 'Category of the product.',
  productType: 'What kind of product it is.',
  currency: 'Currency of the prices.',
  imageBlobId: "Id of the product's picture.",
  baseUnit: 'The unit the product is counted in.',
  unitsOfMeasurement: 'Units the product is counted, bought or sold in.',
  imageAssets: 'Pictures of the product.',
} as const;

@Entity({ tableName: 'product' })
@Index({ name: 'product_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'Something the tenant stocks, makes or sells.' })
export class Product extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: PRODUCT_DOCS.name }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.brand })
  brand?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.category })
  category?: string;
  @Enum({ items: () => ProductType, nullable: true })
  @Field(() => ProductType, { nullable: true, description: PRODUCT_DOCS.productType })
  productType?: ProductType;
  @DecimalColumn(14, 4, { description: 'Cost price of one base unit.' })
  unitPrice?: number;
  @DecimalColumn(14, 4, { description: 'Sales price of one base unit.' })
  salesPrice?: number;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.currency })
  currency?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.imageBlobId })
  imageBlobId?: string;
  @Property({ type: 'json', nullable: true })
  @Field(() => UnitOfMeasurement, { nullable: true, description: PRODUCT_DOCS.baseUnit })
  baseUnit?: UnitOfMeasurement;
  @Property({ type: 'json' })
  @Field(() => [UnitOfMeasurement], { description: PRODUCT_DOCS.unitsOfMeasurement })
  unitsOfMeasurement: UnitOfMeasurement[] = [];
  @Property({ type: 'json' })
  @Field(() => [FileAsset], { description: PRODUCT_DOCS.imageAssets })
  imageAssets: FileAsset[] = [];
}
