import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject, SafeIntResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Parameter, Vector3Formula } from '../shared';
import { decisionTreeOf, type DecisionTree } from './decision-tree';

/**
 * The nested shapes of a configurator type (specification, "Type (configurator type)"), stored in
 * the type's JSON columns. Classes are both output and input types (`...Input`), except
 * StaticModel, whose `stats` only the coverage calculation writes.
 */

export enum VariablePhase {
  PLAN = 'PLAN',
  DESIGN = 'DESIGN',
  BUILD = 'BUILD',
  FINISH = 'FINISH',
}
registerEnumType(VariablePhase, {
  name: 'VariablePhase',
  description: 'The stage of a project in which a variable or option is decided.',
});

export enum ModelElementType {
  WALL = 'WALL',
  FLOOR = 'FLOOR',
  ROOF = 'ROOF',
  WINDOW = 'WINDOW',
  DOOR = 'DOOR',
  STAIR = 'STAIR',
  BEAM = 'BEAM',
  COLUMN = 'COLUMN',
  OTHER = 'OTHER',
}
registerEnumType(ModelElementType, { name: 'ModelElementType', description: 'What a model element is.' });

export enum MassModelShape {
  Box = 'Box',
}
registerEnumType(MassModelShape, {
  name: 'MassModelShape',
  description: 'The solid a mass-model element is drawn as.',
});

export enum StaticModelType {
  CONCEPT = 'CONCEPT',
  VARIANT = 'VARIANT',
  PROJECT = 'PROJECT',
}
registerEnumType(StaticModelType, {
  name: 'StaticModelType',
  description: 'What a static model (and the product coverage made from it) models.',
});

@ObjectType('VariableConfiguration', { description: 'The allowed range and default of a variable.' })
@InputType('VariableConfigurationInput')
export class VariableConfiguration {
  @Field(() => Float, { nullable: true }) defaultValue?: number | null;
  @Field(() => Boolean, { nullable: true }) isFixed?: boolean | null;
  @Field(() => Float, { nullable: true }) max?: number | null;
  @Field(() => Float, { nullable: true }) min?: number | null;
  @Field(() => Float, { nullable: true }) stepSize?: number | null;
}

@ObjectType('VariableConfigEntry', { description: 'A variable and its configuration.' })
@InputType('VariableConfigEntryInput')
export class VariableConfigEntry {
  @Field(() => String) id!: string;
  @Field(() => VariableConfiguration, { nullable: true }) configuration?: VariableConfiguration | null;
}

export const VariableTree = decisionTreeOf(
  'VariableTree',
  VariableConfiguration,
  'Decides the configuration of a variable from the selected option codes.',
);

@ObjectType('TypeVariable', { description: 'A variable of a type, whose configuration depends on choices.' })
@InputType('TypeVariableInput')
export class TypeVariable {
  @Field(() => String, { description: 'The variable name; unique within its type.' }) id!: string;
  @Field(() => VariablePhase, { nullable: true }) phase?: VariablePhase | null;
  @Field(() => VariableTree, { nullable: true }) tree?: DecisionTree<VariableConfiguration> | null;
}

@ObjectType('VariableSummary', { description: 'A variable of a type, without its tree.' })
export class VariableSummary {
  @Field(() => String) id!: string;
  @Field(() => VariablePhase, { nullable: true }) phase?: VariablePhase | null;
}

@ObjectType('OptionCode', { description: 'One choosable code of an option.' })
@InputType('OptionCodeInput')
export class OptionCode {
  @Field(() => String, { nullable: true }) code?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) option?: string | null;
  @Field(() => Float, { nullable: true }) price?: number | null;
  @Field(() => Boolean, { nullable: true }) visible?: boolean | null;
}

@ObjectType('TypeOption', { description: 'An option of a type and the codes that may be chosen for it.' })
@InputType('TypeOptionInput')
export class TypeOption {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) category?: string | null;
  @Field(() => [String]) activeViews: string[] = [];
  @Field(() => [OptionCode]) codes: OptionCode[] = [];
  @Field(() => Boolean, { nullable: true }) isNeighborOption?: boolean | null;
  @Field(() => Boolean, { nullable: true }) neighborOption?: boolean | null;
  @Field(() => VariablePhase, { nullable: true }) phase?: VariablePhase | null;
  @Field(() => Boolean, { nullable: true }) visible?: boolean | null;
}

@ObjectType('ModelElement', { description: 'An element of a 3D model, placed by formulas.' })
@InputType('ModelElementInput')
export class ModelElement {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => Int, { nullable: true }) level?: number | null;
  @Field(() => String, { nullable: true }) material?: string | null;
  @Field(() => ModelElementType, { nullable: true }) type?: ModelElementType | null;
  @Field(() => Vector3Formula, { nullable: true }) dimensions?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) rotation?: Vector3Formula | null;
}

export const ModelTree = decisionTreeOf('ModelTree', ModelElement, 'Decides a model element from choices.');

@ObjectType('TypeModel', { description: 'A model element of a type, decided by a tree.' })
@InputType('TypeModelInput')
export class TypeModel {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => ModelTree, { nullable: true }) models?: DecisionTree<ModelElement> | null;
}

@ObjectType('MassModelElement', { description: 'A block of the mass model (no material).' })
@InputType('MassModelElementInput')
export class MassModelElement {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => Int, { nullable: true }) level?: number | null;
  @Field(() => MassModelShape, { nullable: true }) type?: MassModelShape | null;
  @Field(() => Vector3Formula, { nullable: true }) dimensions?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) rotation?: Vector3Formula | null;
}

export const MassModelTree = decisionTreeOf(
  'MassModelTree',
  MassModelElement,
  'Decides a mass-model block from choices.',
);

@ObjectType('TypeMassModel', { description: 'A mass-model block of a type, decided by a tree.' })
@InputType('TypeMassModelInput')
export class TypeMassModel {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => MassModelTree, { nullable: true }) models?: DecisionTree<MassModelElement> | null;
}

@ObjectType('RestrictedOption', { description: 'The codes still allowed for an option, and why.' })
@InputType('RestrictedOptionInput')
export class RestrictedOption {
  @Field(() => [String]) allowedCodes: string[] = [];
  @Field(() => String, { nullable: true }) optionName?: string | null;
  @Field(() => String, { nullable: true }) reason?: string | null;
}

@ObjectType('RestrictionRule', { description: 'Limits on the codes of options.' })
@InputType('RestrictionRuleInput')
export class RestrictionRule {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => [RestrictedOption]) options: RestrictedOption[] = [];
}

export const RestrictionTree = decisionTreeOf(
  'RestrictionTree',
  RestrictionRule,
  'Decides which codes remain allowed from the choices made.',
);

@ObjectType('TypeRestriction', {
  description: 'A restriction of a type; `active` and `isActive` are one value under two names.',
})
@InputType('TypeRestrictionInput')
export class TypeRestriction {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isActive?: boolean | null;
  @Field(() => String, { nullable: true }) category?: string | null;
  @Field(() => RestrictionTree, { nullable: true }) restrictions?: DecisionTree<RestrictionRule> | null;
}

@ObjectType('StaticModelStats', {
  description: 'What the last coverage calculation found for a static model (read-only).',
})
export class StaticModelStats {
  @Field(() => Int, { description: 'Variants with a GLB file.' }) glbInDb!: number;
  @Field(() => DateTimeISOResolver, { nullable: true }) lastSynced?: string | null;
  @Field(() => Int, { description: 'Variants whose coverage is complete.' }) modelsComplete!: number;
  @Field(() => Int, { description: 'Variants with at least one model file.' }) modelsInDb!: number;
  @Field(() => Int, { description: 'Variants with an RVT file.' }) rvtInDb!: number;
  @Field(() => SafeIntResolver, { description: 'Bytes of model files of the variants.' })
  totalFileSize!: number;
  @Field(() => Int, { description: 'Variants the static model tree produces.' }) totalModels!: number;
}

@ObjectType('StaticModelVariant', {
  description:
    'A static model variant; an exhaustive one stands for one variant per combination of the codes of its exhaustive options.',
})
@InputType('StaticModelVariantInput')
export class StaticModelVariant {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Boolean, { nullable: true }) isEmpty?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isExhaustive?: boolean | null;
  @Field(() => [String], { description: 'Names (or ids) of options of the type.' })
  exhaustiveOptions: string[] = [];
  @Field(() => [Parameter]) parameters: Parameter[] = [];
  @Field(() => Vector3Formula, { nullable: true }) position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) rotation?: Vector3Formula | null;
}

export const StaticModelTree = decisionTreeOf(
  'StaticModelTree',
  StaticModelVariant,
  'Decides the static model variant from choices; its results are the variants to cover.',
);

@ObjectType('StaticModel', { description: 'A set of prepared models of a type, one per variant.' })
export class StaticModel {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) modelNamePrefix?: string | null;
  @Field(() => StaticModelType, { nullable: true }) type?: StaticModelType | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Product names by variant id, replacing the generated name.',
  })
  nameOverrides?: Record<string, string> | null;
  @Field(() => StaticModelStats, { nullable: true }) stats?: StaticModelStats | null;
  @Field(() => StaticModelTree, { nullable: true }) models?: DecisionTree<StaticModelVariant> | null;
}

@InputType('StaticModelInput', {
  description: 'A static model; its stats are kept from the stored model with the same id.',
})
export class StaticModelInput {
  @Field(() => String, { nullable: true, description: 'Generated when absent.' }) id?: string | null;
  @Field(() => String, { nullable: true }) modelNamePrefix?: string | null;
  @Field(() => StaticModelType, { nullable: true }) type?: StaticModelType | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) nameOverrides?: Record<string, string> | null;
  @Field(() => StaticModelTree, { nullable: true }) models?: DecisionTree<StaticModelVariant> | null;
}

@ObjectType('TypeView', {
  description: 'A camera view of a type; `active` and `isActive` are one value under two names.',
})
@InputType('TypeViewInput')
export class TypeView {
  @Field(() => String, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isActive?: boolean | null;
  @Field(() => [String]) activeCategories: string[] = [];
  @Field(() => Float, { nullable: true }) maxHeight?: number | null;
  @Field(() => Vector3Formula, { nullable: true }) position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true }) target?: Vector3Formula | null;
}
