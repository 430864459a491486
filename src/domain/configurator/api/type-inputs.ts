import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { CONFIGURATOR_TYPE_DOCS } from '../entities/configurator-type';
import {
  StaticModelInput,
  TypeMassModel,
  TypeModel,
  TypeOption,
  TypeRestriction,
  TypeVariable,
  TypeView,
  VariableConfigEntry,
} from '../entities/type-shapes';
import { FileAsset } from '../../../entities/shared';

@InputType({
  description:
    'Changes to a configurator type; a collection given replaces the stored one, absent fields stay.',
})
export class UpdateConfiguratorTypeInput {
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.color })
  color?: string;
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.concept }) concept?: string;
  @Field(() => String, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.elementNamePrefix })
  elementNamePrefix?: string;
  @Field(() => String, {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.variantSuffixFormat,
  })
  variantSuffixFormat?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.compensateNulpunt,
  })
  compensateNulpunt?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.hideBaseOptionInName,
  })
  hideBaseOptionInName?: boolean;
  @Field(() => [String], { nullable: true, description: CONFIGURATOR_TYPE_DOCS.enforcedCategories })
  enforcedCategories?: string[];
  @Field(() => FileAsset, { nullable: true, description: CONFIGURATOR_TYPE_DOCS.previewBlob })
  previewBlob?: FileAsset;
  @Field(() => [VariableConfigEntry], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.baseVariables,
  })
  baseVariables?: VariableConfigEntry[];
  @Field(() => [TypeVariable], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.variables,
  })
  variables?: TypeVariable[];
  @Field(() => [TypeOption], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.options,
  })
  options?: TypeOption[];
  @Field(() => [TypeModel], { nullable: true, description: CONFIGURATOR_TYPE_DOCS.models })
  models?: TypeModel[];
  @Field(() => [TypeMassModel], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.massModel,
  })
  massModel?: TypeMassModel[];
  @Field(() => [TypeRestriction], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.restrictions,
  })
  restrictions?: TypeRestriction[];
  @Field(() => [StaticModelInput], {
    nullable: true,
    description: CONFIGURATOR_TYPE_DOCS.staticModels,
  })
  staticModels?: StaticModelInput[];
  @Field(() => [TypeView], { nullable: true, description: CONFIGURATOR_TYPE_DOCS.views })
  views?: TypeView[];
}

/** The update's fields with a required name (a subclass field replaces the inherited one). */
@InputType({ description: 'A new configurator type; collections are given whole.' })
export class CreateConfiguratorTypeInput extends UpdateConfiguratorTypeInput {
  @Field(() => String, { description: CONFIGURATOR_TYPE_DOCS.name })
  @Length(1, 200)
  override name!: string;
}
