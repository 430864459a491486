import { BigIntType, Entity, Index, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { FileAsset } from '../shared';
import { Audited } from '../tenant-scoped';
import {
  StaticModel,
  TypeMassModel,
  TypeModel,
  TypeOption,
  TypeRestriction,
  TypeVariable,
  TypeView,
  VariableConfigEntry,
} from './type-shapes';

/**
 * The specification's "Type": a configurable product type with its variables, options, models
 * and restrictions, each decided by decision trees from the option codes a customer chooses.
 * GraphQL calls it ConfiguratorType (a root field named `type` would say nothing). The nested
 * collections are only ever read and written whole, so they live in JSON columns; the
 * totalStaticModels* figures are sums over `staticModels[].stats`, stored so they can be
 * sorted and filtered.
 */
@Entity({ tableName: 'configurator_type' })
@Index({ name: 'configurator_type_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'configurator_type_tenant_concept_idx', properties: ['tenantId', 'concept'] })
@ObjectType({ description: 'A configurable product type (the specification\'s "Type").' })
export class ConfiguratorType extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the type.' }) name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Colour shown for the type (CSS colour).' })
  color?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The concept the type belongs to.' })
  concept?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "Prefix of the names of the type's model elements." })
  elementNamePrefix?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Suffix per chosen code in variant product names: {option}, {code}, {description}.',
  })
  variantSuffixFormat?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: 'True when model heights are corrected for the zero point (nulpunt) of the building.',
  })
  compensateNulpunt: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: "Leave each option's first (base) code out of variant names." })
  hideBaseOptionInName: boolean = false;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Option categories a configuration must choose in.' })
  enforcedCategories: string[] = [];

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true, description: 'Preview image of the type.' })
  previewBlob?: FileAsset;

  @Property({ type: 'json' })
  @Field(() => [VariableConfigEntry], {
    description: 'Values of variables that hold for every configuration of the type.',
  })
  baseVariables: VariableConfigEntry[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeVariable], {
    description: "The type's variables, each with the decision tree that resolves it.",
  })
  variables: TypeVariable[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeOption], { description: 'The options a buyer chooses from, each with its codes.' })
  options: TypeOption[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeModel], { description: "The type's 3D models, made of elements." })
  models: TypeModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeMassModel], { description: "The type's mass models, made of simple solids." })
  massModel: TypeMassModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeRestriction], { description: 'Rules that limit which codes may be combined.' })
  restrictions: TypeRestriction[] = [];
  @Property({ type: 'json' })
  @Field(() => [StaticModel], { description: 'The static model trees whose variants get product coverages.' })
  staticModels: StaticModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeView], { description: 'The views the configurator shows.' })
  views: TypeView[] = [];

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Sum of staticModels[].stats.totalModels.' })
  totalStaticModels: number = 0;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Sum of staticModels[].stats.modelsComplete.' })
  totalStaticModelsComplete: number = 0;

  @Property({ type: new BigIntType('number') })
  @Field(() => SafeIntResolver, { description: 'Sum of staticModels[].stats.totalFileSize (bytes).' })
  totalStaticModelsFileSize: number = 0;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Sum of staticModels[].stats.glbInDb.' })
  totalStaticModelsGlbInDb: number = 0;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Sum of staticModels[].stats.modelsInDb.' })
  totalStaticModelsInDb: number = 0;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Sum of staticModels[].stats.rvtInDb.' })
  totalStaticModelsRvtInDb: number = 0;
}
