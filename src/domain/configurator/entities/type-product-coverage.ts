import { BigIntType, Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { FileAsset, Parameter } from '../../../entities/shared';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';
import { StaticModelType } from './type-shapes';

/** What TypeProductCoverage fields mean, shared with the inputs that set them. */
export const TYPE_PRODUCT_COVERAGE_DOCS = {
  typeId: 'Id of the configurator type.',
  productName: 'Name of the product the variant is sold as.',
  modelType: 'What the static model models.',
  parameters: 'Parameters of the variant.',
  projectIds: 'Ids of the projects the coverage is used in.',
  assets: 'Model files of the variant; `complete` and `totalFileSize` derive from them.',
} as const;

/**
 * Whether a product variant of a type is covered by stored models: one row per variant of a
 * static model (staticModelTreeId, variantId), made by the coverage calculation. The flags and
 * the total size are derived from `assets` on every write.
 */
@Entity({ tableName: 'type_product_coverage' })
@Unique({
  // PostgreSQL cuts names at 63 characters; a longer one would never match the database.
  name: 'type_product_coverage_variant_uq',
  properties: ['tenantId', 'typeId', 'staticModelTreeId', 'variantId'],
})
@TenantIndexes(
  'type_product_coverage',
  'productName',
  'linkedProductId',
  'variantId',
  'modelType',
  'complete',
  'glbComplete',
  'rvtComplete',
  'totalFileSize',
)
@ObjectType({ description: 'The model coverage of one product variant of a type.' })
export class TypeProductCoverage extends Audited {
  @UuidColumn({ nullable: false, description: TYPE_PRODUCT_COVERAGE_DOCS.typeId })
  typeId!: string;

  @TextColumn({ description: TYPE_PRODUCT_COVERAGE_DOCS.productName })
  productName?: string | null;

  @UuidColumn({ description: 'The Product made for this variant.' })
  linkedProductId?: string | null;

  @TextColumn({ description: 'Id of the static model of the type.' })
  staticModelTreeId?: string | null;

  @TextColumn({ description: 'The variant within the static model.' })
  variantId?: string | null;

  @BooleanColumn({ nullable: false, description: 'Both a GLB and an RVT file are stored.' })
  complete: boolean = false;

  @BooleanColumn({ nullable: false, description: 'A GLB file is among the assets.' })
  glbComplete: boolean = false;

  @BooleanColumn({ nullable: false, description: 'An RVT file is among the assets.' })
  rvtComplete: boolean = false;

  @EnumColumn(() => StaticModelType, { description: TYPE_PRODUCT_COVERAGE_DOCS.modelType })
  modelType?: StaticModelType | null;

  @JsonColumn(() => [Parameter], { nullable: false, description: TYPE_PRODUCT_COVERAGE_DOCS.parameters })
  parameters: Parameter[] = [];
  @TextListColumn({ description: TYPE_PRODUCT_COVERAGE_DOCS.projectIds })
  projectIds: string[] = [];
  @JsonColumn(() => [FileAsset], { nullable: false, description: TYPE_PRODUCT_COVERAGE_DOCS.assets })
  assets: FileAsset[] = [];

  @Property({ type: new BigIntType('number') })
  @Field(() => SafeIntResolver, { description: 'Bytes of all assets.' })
  totalFileSize: number = 0;
}
