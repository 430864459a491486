import { BigIntType, Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { FileAsset, Parameter } from '../shared';
import { Audited } from '../tenant-scoped';
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
@Index({ name: 'type_product_coverage_tenant_product_name_idx', properties: ['tenantId', 'productName'] })
@Index({
  name: 'type_product_coverage_tenant_linked_product_id_idx',
  properties: ['tenantId', 'linkedProductId'],
})
@Index({ name: 'type_product_coverage_tenant_variant_id_idx', properties: ['tenantId', 'variantId'] })
@Index({ name: 'type_product_coverage_tenant_model_type_idx', properties: ['tenantId', 'modelType'] })
@Index({ name: 'type_product_coverage_tenant_complete_idx', properties: ['tenantId', 'complete'] })
@Index({ name: 'type_product_coverage_tenant_glb_complete_idx', properties: ['tenantId', 'glbComplete'] })
@Index({ name: 'type_product_coverage_tenant_rvt_complete_idx', properties: ['tenantId', 'rvtComplete'] })
@Index({
  name: 'type_product_coverage_tenant_total_file_size_idx',
  properties: ['tenantId', 'totalFileSize'],
})
@ObjectType({ description: 'The model coverage of one product variant of a type.' })
export class TypeProductCoverage extends Audited {
  @Property({ type: 'uuid' })
  @Field(() => String, { description: TYPE_PRODUCT_COVERAGE_DOCS.typeId })
  typeId!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.productName })
  productName?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The Product made for this variant.' })
  linkedProductId?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the static model of the type.' })
  staticModelTreeId?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The variant within the static model.' })
  variantId?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'Both a GLB and an RVT file are stored.' })
  complete: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'A GLB file is among the assets.' })
  glbComplete: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'An RVT file is among the assets.' })
  rvtComplete: boolean = false;

  @Enum({ items: () => StaticModelType, nullable: true })
  @Field(() => StaticModelType, { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.modelType })
  modelType?: StaticModelType;

  @Property({ type: 'json' })
  @Field(() => [Parameter], { description: TYPE_PRODUCT_COVERAGE_DOCS.parameters })
  parameters: Parameter[] = [];
  @Property({ type: 'text[]' })
  @Field(() => [String], { description: TYPE_PRODUCT_COVERAGE_DOCS.projectIds })
  projectIds: string[] = [];
  @Property({ type: 'json' })
  @Field(() => [FileAsset], {
    description: TYPE_PRODUCT_COVERAGE_DOCS.assets,
  })
  assets: FileAsset[] = [];

  @Property({ type: new BigIntType('number') })
  @Field(() => SafeIntResolver, { description: 'Bytes of all assets.' })
  totalFileSize: number = 0;
}
