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

@Entity({ tableName: 'product' })
@Index({ name: 'product_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'Something the tenant stocks, makes or sells.' })
export class Product extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the product.' }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Brand of the product.' })
  brand?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Category of the product.' })
  category?: string;
  @Enum({ items: () => ProductType, nullable: true })
  @Field(() => ProductType, { nullable: true, description: 'What kind of product it is.' })
  productType?: ProductType;
  @DecimalColumn(14, 4, { description: 'Cost price of one base unit.' })
  unitPrice?: number;
  @DecimalColumn(14, 4, { description: 'Sales price of one base unit.' })
  salesPrice?: number;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Currency of the prices.' })
  currency?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "Id of the product's picture." })
  imageBlobId?: string;
  @Property({ type: 'json', nullable: true })
  @Field(() => UnitOfMeasurement, { nullable: true, description: 'The unit the product is counted in.' })
  baseUnit?: UnitOfMeasurement;
  @Property({ type: 'json' })
  @Field(() => [UnitOfMeasurement], { description: 'Units the product is counted, bought or sold in.' })
  unitsOfMeasurement: UnitOfMeasurement[] = [];
  @Property({ type: 'json' })
  @Field(() => [FileAsset], { description: 'Pictures of the product.' })
  imageAssets: FileAsset[] = [];
}
