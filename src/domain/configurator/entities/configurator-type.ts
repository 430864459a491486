import { BigIntType, Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { FileAsset } from '../../../entities/shared';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanColumn,
  IntColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
} from '../../../entities/columns';
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
@TenantIndexes('configurator_type', 'name', 'concept')
@ObjectType({ description: 'A configurable product type (the specification\'s "Type").' })
export class ConfiguratorType extends Audited {
  @TextColumn({ nullable: false, description: CONFIGURATOR_TYPE_DOCS.name })
  name!: string;
  @TextColumn({ description: CONFIGURATOR_TYPE_DOCS.color })
  color?: string | null;
  @TextColumn({ description: CONFIGURATOR_TYPE_DOCS.concept })
  concept?: string | null;

  @TextColumn({ description: CONFIGURATOR_TYPE_DOCS.elementNamePrefix })
  elementNamePrefix?: string | null;

  @TextColumn({ description: CONFIGURATOR_TYPE_DOCS.variantSuffixFormat })
  variantSuffixFormat?: string | null;

  @BooleanColumn({ nullable: false, description: CONFIGURATOR_TYPE_DOCS.compensateNulpunt })
  compensateNulpunt: boolean = false;

  @BooleanColumn({ nullable: false, description: CONFIGURATOR_TYPE_DOCS.hideBaseOptionInName })
  hideBaseOptionInName: boolean = false;

  @TextListColumn({ description: CONFIGURATOR_TYPE_DOCS.enforcedCategories })
  enforcedCategories: string[] = [];

  @JsonColumn(() => FileAsset, { description: CONFIGURATOR_TYPE_DOCS.previewBlob })
  previewBlob?: FileAsset | null;

  @JsonColumn(() => [VariableConfigEntry], {
    nullable: false,
    description: CONFIGURATOR_TYPE_DOCS.baseVariables,
  })
  baseVariables: VariableConfigEntry[] = [];
  @JsonColumn(() => [TypeVariable], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.variables })
  variables: TypeVariable[] = [];
  @JsonColumn(() => [TypeOption], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.options })
  options: TypeOption[] = [];
  @JsonColumn(() => [TypeModel], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.models })
  models: TypeModel[] = [];
  @JsonColumn(() => [TypeMassModel], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.massModel })
  massModel: TypeMassModel[] = [];
  @JsonColumn(() => [TypeRestriction], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.restrictions })
  restrictions: TypeRestriction[] = [];
  @JsonColumn(() => [StaticModel], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.staticModels })
  staticModels: StaticModel[] = [];
  @JsonColumn(() => [TypeView], { nullable: false, description: CONFIGURATOR_TYPE_DOCS.views })
  views: TypeView[] = [];

  @IntColumn({ nullable: false, description: 'Sum of staticModels[].stats.totalModels.' })
  totalStaticModels: number = 0;

  @IntColumn({ nullable: false, description: 'Sum of staticModels[].stats.modelsComplete.' })
  totalStaticModelsComplete: number = 0;

  @Property({ type: new BigIntType('number') })
  @Field(() => SafeIntResolver, { description: 'Sum of staticModels[].stats.totalFileSize (bytes).' })
  totalStaticModelsFileSize: number = 0;

  @IntColumn({ nullable: false, description: 'Sum of staticModels[].stats.glbInDb.' })
  totalStaticModelsGlbInDb: number = 0;

  @IntColumn({ nullable: false, description: 'Sum of staticModels[].stats.modelsInDb.' })
  totalStaticModelsInDb: number = 0;

  @IntColumn({ nullable: false, description: 'Sum of staticModels[].stats.rvtInDb.' })
  totalStaticModelsRvtInDb: number = 0;
}
