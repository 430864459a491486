import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { DecimalColumn, EnumColumn, JsonColumn, TenantIndexes, TextColumn } from '../../../entities/columns';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset, UnitOfMeasurement } from '../../../entities/shared';

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
@TenantIndexes('product', 'name')
@ObjectType({ description: 'Something the tenant stocks, makes or sells.' })
export class Product extends Audited {
  @TextColumn({ nullable: false, description: PRODUCT_DOCS.name })
  name!: string;

  @TextColumn({ description: PRODUCT_DOCS.brand })
  brand?: string | null;
  @TextColumn({ description: PRODUCT_DOCS.category })
  category?: string | null;
  @EnumColumn(() => ProductType, { description: PRODUCT_DOCS.productType })
  productType?: ProductType | null;
  @DecimalColumn(14, 4, { description: 'Cost price of one base unit.' })
  unitPrice?: number | null;
  @DecimalColumn(14, 4, { description: 'Sales price of one base unit.' })
  salesPrice?: number | null;
  @TextColumn({ description: PRODUCT_DOCS.currency })
  currency?: string | null;
  @TextColumn({ description: PRODUCT_DOCS.imageBlobId })
  imageBlobId?: string | null;
  @JsonColumn(() => UnitOfMeasurement, { description: PRODUCT_DOCS.baseUnit })
  baseUnit?: UnitOfMeasurement | null;
  @JsonColumn(() => [UnitOfMeasurement], { nullable: false, description: PRODUCT_DOCS.unitsOfMeasurement })
  unitsOfMeasurement: UnitOfMeasurement[] = [];
  @JsonColumn(() => [FileAsset], { nullable: false, description: PRODUCT_DOCS.imageAssets })
  imageAssets: FileAsset[] = [];
}
