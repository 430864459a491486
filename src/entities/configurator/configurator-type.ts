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

/** What ConfiguratorType fields mean, shared with the inputs that set them. */
export const CONFIGURATOR_TYPE_DOCS = {
  name: 'Name of the type.',
  color: 'Colour shown for the type (CSS colour).',
  concept: 'The concept the type belongs to.',
  elementNamePrefix: "Prefix of the names of the type's model elements.",
  variantSuffixFormat: 'Suffix per chosen code in variant product names: {option}, {code}, {description}.',
  compensateNulpunt: 'True when model heights are corrected for the zero point (nulpunt) of the building.',
  hideBaseOptionInName: "Leave each option's first (base) code out of variant names.",
  enforcedCategories: 'Option categories a configuration must choose in.',
  previewBlob: 'Preview image of the type.',
  baseVariables: 'Values of variables that hold for every configuration of the type.',
  variables: "The type's variables, each with the decision tree that resolves it.",
  options: 'The options a buyer chooses from, each with its codes.',
  models: "The type's 3D models, made of elements.",
  massModel: "The type's mass models, made of simple solids.",
  restrictions: 'Rules that limit which codes may be combined.',
  staticModels: 'The static model trees whose variants get product coverages.',
  views: 'The views the configurator shows.',
} as const;

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
  @Property({ type: 'text' })
  @Field(() => String, { description: CONFIGURATOR_TYPE_DOCS.name })
  name!: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.color })
  color?: string;
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.concept })
  concept?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.elementNamePrefix })
  elementNamePrefix?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.variantSuffixFormat,
  })
  variantSuffixFormat?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: CONFIGURATOR_TYPE_DOCS.compensateNulpunt,
  })
  compensateNulpunt: boolean = false;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: CONFIGURATOR_TYPE_DOCS.hideBaseOptionInName })
  hideBaseOptionInName: boolean = false;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: CONFIGURATOR_TYPE_DOCS.enforcedCategories })
  enforcedCategories: string[] = [];

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.previewBlob })
  previewBlob?: FileAsset;

  @Property({ type: 'json' })
  @Field(() => [VariableConfigEntry], {
    description: CONFIGURATOR_TYPE_DOCS.baseVariables,
  })
  baseVariables: VariableConfigEntry[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeVariable], {
    description: CONFIGURATOR_TYPE_DOCS.variables,
  })
  variables: TypeVariable[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeOption], { description: CONFIGURATOR_TYPE_DOCS.options })
  options: TypeOption[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeModel], { description: CONFIGURATOR_TYPE_DOCS.models })
  models: TypeModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeMassModel], { description: CONFIGURATOR_TYPE_DOCS.massModel })
  massModel: TypeMassModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeRestriction], { description: CONFIGURATOR_TYPE_DOCS.restrictions })
  restrictions: TypeRestriction[] = [];
  @Property({ type: 'json' })
  @Field(() => [StaticModel], { description: CONFIGURATOR_TYPE_DOCS.staticModels })
  staticModels: StaticModel[] = [];
  @Property({ type: 'json' })
  @Field(() => [TypeView], { description: CONFIGURATOR_TYPE_DOCS.views })
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
