import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject, SafeIntResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Parameter, Vector3Formula } from '../../../entities/shared';
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
  valuesConfig: {
    PLAN: { description: 'Planning.' },
    DESIGN: { description: 'Design.' },
    BUILD: { description: 'Construction.' },
    FINISH: { description: 'Finishing.' },
  },
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
registerEnumType(ModelElementType, {
  name: 'ModelElementType',
  description: 'What a model element is.',
  valuesConfig: {
    WALL: { description: 'A wall.' },
    FLOOR: { description: 'A floor.' },
    ROOF: { description: 'A roof.' },
    WINDOW: { description: 'A window.' },
    DOOR: { description: 'A door.' },
    STAIR: { description: 'A stair.' },
    BEAM: { description: 'A beam.' },
    COLUMN: { description: 'A column.' },
    OTHER: { description: 'Any other element.' },
  },
});

export enum MassModelShape {
  Box = 'Box',
}
registerEnumType(MassModelShape, {
  name: 'MassModelShape',
  description: 'The solid a mass-model element is drawn as.',
  valuesConfig: { Box: { description: 'A rectangular box.' } },
});

export enum StaticModelType {
  CONCEPT = 'CONCEPT',
  VARIANT = 'VARIANT',
  PROJECT = 'PROJECT',
}
registerEnumType(StaticModelType, {
  name: 'StaticModelType',
  description: 'What a static model (and the product coverage made from it) models.',
  valuesConfig: {
    CONCEPT: { description: 'Models a concept.' },
    VARIANT: { description: 'Models a variant.' },
    PROJECT: { description: 'Models a project.' },
  },
});

@ObjectType('VariableConfiguration', { description: 'The allowed range and default of a variable.' })
@InputType('VariableConfigurationInput', { description: 'Bounds and default of a variable, as sent.' })
export class VariableConfiguration {
  @Field(() => Float, { nullable: true, description: 'Value used when nothing else sets it.' })
  defaultValue?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'True when the value may not change.' }) isFixed?:
    boolean | null;
  @Field(() => Float, { nullable: true, description: 'Largest value allowed.' }) max?: number | null;
  @Field(() => Float, { nullable: true, description: 'Smallest value allowed.' }) min?: number | null;
  @Field(() => Float, { nullable: true, description: 'Step between allowed values.' }) stepSize?:
    number | null;
}

@ObjectType('VariableConfigEntry', { description: 'A variable and its configuration.' })
@InputType('VariableConfigEntryInput', { description: "A variable's configuration, as sent." })
export class VariableConfigEntry {
  @Field(() => String, { description: 'Id of the variable.' }) id!: string;
  @Field(() => VariableConfiguration, { nullable: true, description: 'Bounds and default of the variable.' })
  configuration?: VariableConfiguration | null;
}

export const VariableTree = decisionTreeOf(
  'VariableTree',
  VariableConfiguration,
  'Decides the configuration of a variable from the selected option codes.',
);

@ObjectType('TypeVariable', { description: 'A variable of a type, whose configuration depends on choices.' })
@InputType('TypeVariableInput', { description: 'A variable of a type, as sent.' })
export class TypeVariable {
  @Field(() => String, { description: 'The variable name; unique within its type.' }) id!: string;
  @Field(() => VariablePhase, { nullable: true, description: 'The building phase the variable belongs to.' })
  phase?: VariablePhase | null;
  @Field(() => VariableTree, {
    nullable: true,
    description: 'The decision tree that resolves the variable from the chosen codes.',
  })
  tree?: DecisionTree<VariableConfiguration> | null;
}

@ObjectType('VariableSummary', { description: 'A variable of a type, without its tree.' })
export class VariableSummary {
  @Field(() => String, { description: 'Id of the variable.' }) id!: string;
  @Field(() => VariablePhase, { nullable: true, description: 'The building phase the variable belongs to.' })
  phase?: VariablePhase | null;
}

@ObjectType('OptionCode', { description: 'One choosable code of an option.' })
@InputType('OptionCodeInput', { description: 'A code of an option, as sent.' })
export class OptionCode {
  @Field(() => String, { nullable: true, description: 'The code.' }) code?: string | null;
  @Field(() => String, { nullable: true, description: 'What the code means.' }) description?: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the option the code belongs to.' }) option?:
    string | null;
  @Field(() => Float, { nullable: true, description: 'Price of choosing the code.' }) price?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'False hides the code from buyers.' }) visible?:
    boolean | null;
}

@ObjectType('TypeOption', { description: 'An option of a type and the codes that may be chosen for it.' })
@InputType('TypeOptionInput', { description: 'An option of a type, as sent.' })
export class TypeOption {
  @Field(() => String, { nullable: true, description: 'Id of the option.' }) id?: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the option.' }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'Category of the option.' }) category?: string | null;
  @Field(() => [String], { description: 'Ids of the views the option shows in.' }) activeViews: string[] = [];
  @Field(() => [OptionCode], {
    description: 'The codes a buyer chooses from; exhaustive results expand to every combination of them.',
  })
  codes: OptionCode[] = [];
  @Field(() => Boolean, {
    nullable: true,
    description: 'True when the option concerns the neighbouring building.',
  })
  isNeighborOption?: boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Name of the matching option of the neighbouring building.',
  })
  neighborOption?: boolean | null;
  @Field(() => VariablePhase, { nullable: true, description: 'The building phase the option belongs to.' })
  phase?: VariablePhase | null;
  @Field(() => Boolean, { nullable: true, description: 'False hides the option from buyers.' }) visible?:
    boolean | null;
}

/** Where a model element or a mass-model solid stands, as formulas: declared once for both. */
const Placement = {
  dimensions: () =>
    Field(() => Vector3Formula, { nullable: true, description: 'Width, height and depth, as formulas.' }),
  position: () => Field(() => Vector3Formula, { nullable: true, description: 'Position, as formulas.' }),
  rotation: () => Field(() => Vector3Formula, { nullable: true, description: 'Rotation, as formulas.' }),
};

@ObjectType('ModelElement', { description: 'An element of a 3D model, placed by formulas.' })
@InputType('ModelElementInput', { description: 'An element of a 3D model, as sent.' })
export class ModelElement {
  @Field(() => String, { nullable: true, description: 'Id of the element.' }) id?: string | null;
  @Field(() => Int, { nullable: true, description: 'Storey the element is on.' }) level?: number | null;
  @Field(() => String, { nullable: true, description: 'Material of the element.' }) material?: string | null;
  @Field(() => ModelElementType, { nullable: true, description: 'What the element is.' })
  type?: ModelElementType | null;
  @Placement.dimensions() dimensions?: Vector3Formula | null;
  @Placement.position() position?: Vector3Formula | null;
  @Placement.rotation() rotation?: Vector3Formula | null;
}

export const ModelTree = decisionTreeOf('ModelTree', ModelElement, 'Decides a model element from choices.');

@ObjectType('TypeModel', { description: 'A model element of a type, decided by a tree.' })
@InputType('TypeModelInput', { description: 'A 3D model of a type, as sent.' })
export class TypeModel {
  @Field(() => String, { nullable: true, description: 'Id of the model.' }) id?: string | null;
  @Field(() => ModelTree, { nullable: true, description: 'The elements of the model.' })
  models?: DecisionTree<ModelElement> | null;
}

@ObjectType('MassModelElement', { description: 'A block of the mass model (no material).' })
@InputType('MassModelElementInput', { description: 'A solid of a mass model, as sent.' })
export class MassModelElement {
  @Field(() => String, { nullable: true, description: 'Id of the solid.' }) id?: string | null;
  @Field(() => Int, { nullable: true, description: 'Storey the solid is on.' }) level?: number | null;
  @Field(() => MassModelShape, { nullable: true, description: 'The solid it is drawn as.' })
  type?: MassModelShape | null;
  @Placement.dimensions() dimensions?: Vector3Formula | null;
  @Placement.position() position?: Vector3Formula | null;
  @Placement.rotation() rotation?: Vector3Formula | null;
}

export const MassModelTree = decisionTreeOf(
  'MassModelTree',
  MassModelElement,
  'Decides a mass-model block from choices.',
);

@ObjectType('TypeMassModel', { description: 'A mass-model block of a type, decided by a tree.' })
@InputType('TypeMassModelInput', { description: 'A mass model of a type, as sent.' })
export class TypeMassModel {
  @Field(() => String, { nullable: true, description: 'Id of the mass model.' }) id?: string | null;
  @Field(() => MassModelTree, { nullable: true, description: 'The solids of the mass model.' })
  models?: DecisionTree<MassModelElement> | null;
}

@ObjectType('RestrictedOption', { description: 'The codes still allowed for an option, and why.' })
@InputType('RestrictedOptionInput', { description: 'A limit on one option, as sent.' })
export class RestrictedOption {
  @Field(() => [String], { description: 'The codes still allowed.' }) allowedCodes: string[] = [];
  @Field(() => String, { nullable: true, description: 'Name of the option limited.' }) optionName?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Why it is limited.' }) reason?: string | null;
}

@ObjectType('RestrictionRule', { description: 'Limits on the codes of options.' })
@InputType('RestrictionRuleInput', { description: 'A rule limiting options, as sent.' })
export class RestrictionRule {
  @Field(() => String, { nullable: true, description: 'Id of the rule.' }) id?: string | null;
  @Field(() => [RestrictedOption], { description: 'The options it limits.' }) options: RestrictedOption[] =
    [];
}

export const RestrictionTree = decisionTreeOf(
  'RestrictionTree',
  RestrictionRule,
  'Decides which codes remain allowed from the choices made.',
);

@ObjectType('TypeRestriction', {
  description: 'A restriction of a type; `active` and `isActive` are one value under two names.',
})
@InputType('TypeRestrictionInput', { description: 'A restriction of a type, as sent.' })
export class TypeRestriction {
  @Field(() => String, { nullable: true, description: 'Id of the restriction.' }) id?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'True when the restriction applies; same as `isActive`.',
  })
  active?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Same as `active`.' }) isActive?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Option category the restriction applies to.' })
  category?: string | null;
  @Field(() => RestrictionTree, { nullable: true, description: 'The rules of the restriction.' })
  restrictions?: DecisionTree<RestrictionRule> | null;
}

@ObjectType('StaticModelStats', {
  description: 'What the last coverage calculation found for a static model (read-only).',
})
export class StaticModelStats {
  @Field(() => Int, { description: 'Variants with a GLB file.' }) glbInDb!: number;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the figures were last brought up to date.',
  })
  lastSynced?: string | null;
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
@InputType('StaticModelVariantInput', { description: 'A variant of a static model tree, as sent.' })
export class StaticModelVariant {
  @Field(() => String, { nullable: true, description: 'Id of the variant.' }) id?: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the variant.' }) name?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'True when the variant has no model.' }) isEmpty?:
    boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "True when the variant expands to every combination of its options' codes (up to 10,000).",
  })
  isExhaustive?: boolean | null;
  @Field(() => [String], { description: 'Names (or ids) of options of the type.' })
  exhaustiveOptions: string[] = [];
  @Field(() => [Parameter], { description: 'Parameters of the variant.' }) parameters: Parameter[] = [];
  @Field(() => Vector3Formula, { nullable: true, description: 'Position of the variant.' })
  position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true, description: 'Rotation of the variant.' })
  rotation?: Vector3Formula | null;
}

export const StaticModelTree = decisionTreeOf(
  'StaticModelTree',
  StaticModelVariant,
  'Decides the static model variant from choices; its results are the variants to cover.',
);

/** What StaticModel fields mean, shared with the inputs that set them. */
export const STATIC_MODEL_DOCS = {
  modelNamePrefix: 'Prefix of the names of the models made.',
  type: 'What the static model models.',
  models: 'The decision tree of variants.',
} as const;

/** The fields a static model and its input declare alike. */
const StaticModelField = {
  modelNamePrefix: () =>
    Field(() => String, { nullable: true, description: STATIC_MODEL_DOCS.modelNamePrefix }),
  type: () => Field(() => StaticModelType, { nullable: true, description: STATIC_MODEL_DOCS.type }),
  models: () => Field(() => StaticModelTree, { nullable: true, description: STATIC_MODEL_DOCS.models }),
};

@ObjectType('StaticModel', { description: 'A set of prepared models of a type, one per variant.' })
export class StaticModel {
  @Field(() => String, { nullable: true, description: 'Id of the static model.' }) id?: string | null;
  @StaticModelField.modelNamePrefix() modelNamePrefix?: string | null;
  @StaticModelField.type() type?: StaticModelType | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Product names by variant id, replacing the generated name.',
  })
  nameOverrides?: Record<string, string> | null;
  @Field(() => StaticModelStats, { nullable: true, description: 'Figures on the variants and their files.' })
  stats?: StaticModelStats | null;
  @StaticModelField.models() models?: DecisionTree<StaticModelVariant> | null;
}

@InputType('StaticModelInput', {
  description: 'A static model; its stats are kept from the stored model with the same id.',
})
export class StaticModelInput {
  @Field(() => String, { nullable: true, description: 'Generated when absent.' }) id?: string | null;
  @StaticModelField.modelNamePrefix() modelNamePrefix?: string | null;
  @StaticModelField.type() type?: StaticModelType | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Names to use instead of the generated ones.',
  })
  nameOverrides?: Record<string, string> | null;
  @StaticModelField.models() models?: DecisionTree<StaticModelVariant> | null;
}

@ObjectType('TypeView', {
  description: 'A camera view of a type; `active` and `isActive` are one value under two names.',
})
@InputType('TypeViewInput', { description: 'A view of a type, as sent.' })
export class TypeView {
  @Field(() => String, { nullable: true, description: 'Id of the view.' }) id?: string | null;
  @Field(() => String, { nullable: true, description: 'What the view shows.' }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'True when the view is shown; same as `isActive`.' })
  active?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Same as `active`.' }) isActive?: boolean | null;
  @Field(() => [String], { description: 'Option categories shown in the view.' }) activeCategories: string[] =
    [];
  @Field(() => Float, { nullable: true, description: 'Highest the camera goes.' }) maxHeight?: number | null;
  @Field(() => Vector3Formula, { nullable: true, description: 'Camera position.' })
  position?: Vector3Formula | null;
  @Field(() => Vector3Formula, { nullable: true, description: 'Point the camera looks at.' })
  target?: Vector3Formula | null;
}
