import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { ConfiguratorType } from '../entities/configurator-type';
import { DecisionChoice } from '../entities/decision-tree';
import { TypeVariable, VariableConfigEntry, VariablePhase, VariableSummary } from '../entities/type-shapes';
import type { Context } from '../../../context';
import { can, Requires } from '../../../permissions/rules';
import {
  deleteVariable,
  readVariable,
  resolveVariables,
  searchVariables,
  updateVariable,
} from './type-variables-service';

@InputType({ description: 'A new name and/or phase for a variable; absent fields stay as they are.' })
export class TypeVariableChangeInput {
  @Field(() => String, {
    nullable: true,
    description: 'New id of the variable; one another variable has is a 409.',
  })
  @IsOptional()
  @Length(1, 200)
  id?: string;

  @Field(() => VariablePhase, { nullable: true, description: 'The building phase the variable belongs to.' })
  phase?: VariablePhase;
}

@Resolver(() => ConfiguratorType)
export class TypeVariablesResolver {
  @Requires(can('READ', 'TYPES'))
  @Query(() => [VariableConfigEntry], {
    description:
      "Each variable of the type with its configuration for the selected codes: the first branch of the variable's tree whose choices are all selected, else the tree's default.",
  })
  resolveTypeVariables(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('selection', () => [DecisionChoice], {
      defaultValue: [],
      description: 'The chosen `{code, option}` pairs.',
    })
    selection: DecisionChoice[],
    @Ctx() ctx: Context,
  ): Promise<VariableConfigEntry[]> {
    return resolveVariables(ctx, typeId, selection);
  }

  @Requires(can('READ', 'TYPES'))
  @Query(() => [VariableSummary], {
    description: 'Variables of the type whose id contains the search text, ignoring case.',
  })
  searchTypeVariables(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('search', () => String, {
      description: "Text that must occur in the variable's id (case-insensitively).",
    })
    search: string,
    @Ctx() ctx: Context,
  ): Promise<VariableSummary[]> {
    return searchVariables(ctx, typeId, search);
  }

  @Requires(can('READ', 'TYPES'))
  @Query(() => TypeVariable, { description: 'One variable of a type with its decision tree.' })
  typeVariable(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('variableId', () => String, { description: 'Id of the variable.' }) variableId: string,
    @Ctx() ctx: Context,
  ): Promise<TypeVariable> {
    return readVariable(ctx, typeId, variableId);
  }

  @Requires(can('UPDATE', 'TYPES'))
  @Mutation(() => ConfiguratorType, {
    description: 'Renames and/or re-phases a variable; a new id another variable has is a conflict.',
  })
  updateTypeVariable(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('variableId', () => String, { description: 'Id of the variable.' }) variableId: string,
    @Arg('input', () => TypeVariableChangeInput, { description: "The variable's new values." })
    input: TypeVariableChangeInput,
    @Ctx() ctx: Context,
  ): Promise<ConfiguratorType> {
    return updateVariable(ctx, typeId, variableId, input);
  }

  @Requires(can('DELETE', 'TYPES'))
  @Mutation(() => ConfiguratorType, { description: 'Removes a variable from its type.' })
  deleteTypeVariable(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('variableId', () => String, { description: 'Id of the variable.' }) variableId: string,
    @Ctx() ctx: Context,
  ): Promise<ConfiguratorType> {
    return deleteVariable(ctx, typeId, variableId);
  }
}
