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
registerEnumType(ProductType, { name: 'ProductType' });

@Entity({ tableName: 'product' })
@Index({ name: 'product_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'Something the tenant stocks, makes or sells.' })
export class Product extends Audited {
  @Property({ type: 'text' }) @Field(() => String) name!: string;
  @Property({ type: 'text', nullable: true }) @Field(() => String, { nullable: true }) brand?: string;
  @Property({ type: 'text', nullable: true }) @Field(() => String, { nullable: true }) category?: string;
  @Enum({ items: () => ProductType, nullable: true })
  @Field(() => ProductType, { nullable: true })
  productType?: ProductType;
  @DecimalColumn(14, 4)
  unitPrice?: number;
  @DecimalColumn(14, 4)
  salesPrice?: number;
  @Property({ type: 'text', nullable: true }) @Field(() => String, { nullable: true }) currency?: string;
  @Property({ type: 'text', nullable: true }) @Field(() => String, { nullable: true }) imageBlobId?: string;
  @Property({ type: 'json', nullable: true })
  @Field(() => UnitOfMeasurement, { nullable: true })
  baseUnit?: UnitOfMeasurement;
  @Property({ type: 'json' }) @Field(() => [UnitOfMeasurement]) unitsOfMeasurement: UnitOfMeasurement[] = [];
  @Property({ type: 'json' }) @Field(() => [FileAsset]) imageAssets: FileAsset[] = [];
}
