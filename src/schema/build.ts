import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { familyResolver } from '../family/resolver';
import { groups } from '../resolvers/groups';
import { extraResolvers } from '../resolvers';
import { applyPermissions } from '../permissions/rules';

// Made once per process: type-graphql keeps decorator metadata globally.
let resolvers: Function[] | undefined;
const resolverClasses = () => (resolvers ??= [...groups.map((g) => familyResolver(g)), ...extraResolvers]);

/** The schema without permission rules: what the SDL and the rule-coverage test look at. */
export function buildBareSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: resolverClasses() as [Function, ...Function[]],
    validate: { forbidUnknownValues: false, skipMissingProperties: false },
    emitSchemaFile: false,
  });
}

/** The schema Apollo serves and the REST facade executes: every root field behind its rule. */
export async function buildAppSchema(): Promise<GraphQLSchema> {
  return applyPermissions(await buildBareSchema());
}
