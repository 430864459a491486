import { Field, InputType, ObjectType, type ClassType } from 'type-graphql';

/**
 * The specification's decision tree: `{branches: [{choices, id, result}], decisionTree: {id,
 * result}}`, where the result type depends on the use. GraphQL has no generics, so each use gets
 * its own named types (VariableTree, ModelTree, ...) from `decisionTreeOf`. Every class is both
 * the output and (suffixed `Input`) the input type; list fields start as [] so that stored trees
 * always hold their lists.
 */

@ObjectType('DecisionChoice', {
  description: 'One code of one option: a condition of a branch, or a selection to resolve against.',
})
@InputType('DecisionChoiceInput', { description: 'A chosen option code, as sent.' })
export class DecisionChoice {
  @Field(() => String, { description: 'The code chosen.' }) code!: string;
  @Field(() => String, { description: 'The option it is chosen in.' }) option!: string;
}

export interface DecisionBranch<R> {
  id?: string | null;
  choices: DecisionChoice[];
  result?: R | null;
}

export interface DecisionDefault<R> {
  id?: string | null;
  result?: R | null;
}

export interface DecisionTree<R> {
  branches: DecisionBranch<R>[];
  decisionTree?: DecisionDefault<R> | null;
}

export function decisionTreeOf<R extends object>(
  name: string,
  result: ClassType<R>,
  description: string,
): ClassType<DecisionTree<R>> {
  @ObjectType(`${name}Branch`, {
    description: `A branch of a ${name}: it applies when every one of its choices is selected.`,
  })
  @InputType(`${name}BranchInput`, { description: `A branch of a ${name}, as sent.` })
  class Branch implements DecisionBranch<R> {
    @Field(() => String, { nullable: true, description: 'Id of the branch.' }) id?: string | null;
    @Field(() => [DecisionChoice], {
      description: 'The choices that must all be selected for the branch to apply; none means always.',
    })
    choices: DecisionChoice[] = [];
    @Field(() => result, { nullable: true, description: 'The result when the branch applies.' })
    result?: R | null;
  }

  @ObjectType(`${name}Default`, { description: `The result of a ${name} when no branch applies.` })
  @InputType(`${name}DefaultInput`, { description: `The default result of a ${name}, as sent.` })
  class Default implements DecisionDefault<R> {
    @Field(() => String, { nullable: true, description: 'Id of the default.' }) id?: string | null;
    @Field(() => result, { nullable: true, description: 'The result when no branch applies.' })
    result?: R | null;
  }

  @ObjectType(name, { description })
  @InputType(`${name}Input`, { description: `A ${name}, as sent.` })
  class Tree implements DecisionTree<R> {
    @Field(() => [Branch], { description: 'Tried in order; the first whose choices all match wins.' })
    branches: Branch[] = [];

    @Field(() => Default, { nullable: true, description: 'Used when no branch matches.' })
    decisionTree?: Default | null;
  }

  return Tree;
}
