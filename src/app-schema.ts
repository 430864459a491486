import type { GraphQLSchema } from 'graphql';
import { validateOrReject, type ValidationError, type ValidatorOptions } from 'class-validator';
import { ArgumentValidationError, buildSchema, getMetadataStorage, type ResolverData } from 'type-graphql';
import type { Context } from './context';
import { nullWhereRequired, registerWritingInputs } from './family/required-fields';
import { familyResolver } from './family/resolver';
import { listResolvers } from './family/lists';
import { FamilyService } from './family/service';
import type { GroupDef } from './family/group';
import type { DomainModule } from './modules';
import { appModules } from './app-modules';
import { recordHistoryResolvers } from './domain/history/api/record-history';
import { applyPermissions } from './permissions/rules';
import { registerRecordTypes } from './family/record-types';
import { checkInputNames, cleanNames } from './family/input-names';
import { ROOT_DOCS } from './schema/descriptions';
import { directFieldResolvers, resolverContainer } from './schema/direct-resolvers';

// Made once per group and process: type-graphql keeps decorator metadata globally, so a second
// resolver class for a group would declare its root fields twice.
const familyResolvers = new WeakMap<GroupDef<any, any, any>, Function[]>();
function familyResolversOf(group: GroupDef<any, any, any>): Function[] {
  let resolvers = familyResolvers.get(group);
  if (!resolvers) {
    const service = new FamilyService(group);
    resolvers = [familyResolver(group, service), ...listResolvers(group, service)];
    familyResolvers.set(group, resolvers);
  }
  return resolvers;
}

const VALIDATION: ValidatorOptions = { forbidUnknownValues: false, skipMissingProperties: false };
const isObject = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * Argument validation as type-graphql's own (class-validator on object arguments and on the
 * objects of list arguments, the same options, the same error), with class-validator imported
 * once: type-graphql's built-in path imports it again for every validated argument, copying
 * its hundreds of exports each time, a visible share of a simple request's CPU (bench/README.md,
 * "Other measured reasons").
 */
async function validateArgument(value: unknown, argType: unknown, data: ResolverData): Promise<void> {
  if (!isObject(value)) return;
  const context = data.context as Partial<Context> | undefined;
  // Null where the record requires a value is refused with the rest of the input's faults.
  const nulls =
    typeof argType === 'function' && !Array.isArray(value) && context?.em
      ? nullWhereRequired(context.em, value, argType)
      : [];
  if (Array.isArray(value)) value.filter(isObject).forEach(cleanNames);
  else cleanNames(value);
  try {
    if (Array.isArray(value))
      await Promise.all(value.filter(isObject).map((item) => validateOrReject(item, VALIDATION)));
    else await validateOrReject(value, VALIDATION);
  } catch (err) {
    const others = (err as ValidationError[]).filter((e) => !nulls.some((n) => n.property === e.property));
    throw new ArgumentValidationError([...nulls, ...others]);
  }
  if (nulls.length) throw new ArgumentValidationError(nulls);
}

/**
 * type-graphql builds the root types itself and takes no description for them, so they get
 * theirs here; every other description sits next to its declaration.
 */
function describeRootTypes(schema: GraphQLSchema): void {
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  const subscription = schema.getSubscriptionType();
  if (query) query.description = ROOT_DOCS.query;
  if (mutation) mutation.description = ROOT_DOCS.mutation;
  if (subscription) subscription.description = ROOT_DOCS.subscription;
}

const NO_PUBSUB = {
  publish(): void {
    throw new Error('subscriptions here have their own streams (events/live.ts)');
  },
  subscribe(): never {
    throw new Error('subscriptions here have their own streams (events/live.ts)');
  },
};

/**
 * Fields that only read their property are left without a resolver, so graphql-js's default
 * and graphql-jit's inlined property read serve them. type-graphql's own resolver for such a
 * field allocates its resolver data and walks an empty middleware list for every field of every
 * row; its `simple` option is the documented way out, set here for each field that has no
 * middleware or roles and whose property is its GraphQL name (the default resolver reads the
 * GraphQL name). Field resolvers are untouched.
 */
function simpleWherePlain(): void {
  const storage = getMetadataStorage();
  // Read before type-graphql's build, which spreads these onto each field's metadata.
  const guarded = new Set<Function>(
    [...storage.middlewares, ...storage.resolverMiddlewares, ...storage.authorizedFields].map(
      (m) => m.target,
    ),
  );
  for (const field of storage.fields) {
    const plain = !guarded.has(field.target) && field.name === field.schemaName;
    if (plain && field.simple === undefined) field.simple = true;
  }
}

/**
 * The schema without permission rules: what the SDL and the rule-coverage test look at, of the
 * modules given: the application's, or (in a test of the recipe for adding a group) those and
 * one more.
 */
export async function buildBareSchema(modules: readonly DomainModule[] = appModules): Promise<GraphQLSchema> {
  const groups = modules.flatMap((m) => m.groups);
  simpleWherePlain();
  checkInputNames();
  for (const group of groups) registerWritingInputs(group);
  const schema = await buildSchema({
    resolvers: [
      ...groups.flatMap(familyResolversOf),
      ...recordHistoryResolvers(groups),
      ...modules.flatMap((m) => m.resolvers),
    ] as [Function, ...Function[]],
    validateFn: validateArgument,
    // Subscriptions bring their own streams (events/live.ts); type-graphql insists on a PubSub.
    pubSub: NO_PUBSUB,
    emitSchemaFile: false,
    // type-graphql's check runs the whole introspection query over the new schema; graphql
    // validates the schema itself on its first use (the REST rows' documents are validated
    // against it at start-up), so the check only repeated that at a cost paid on every start.
    skipCheck: true,
    container: resolverContainer,
  });
  directFieldResolvers(schema);
  describeRootTypes(schema);
  registerRecordTypes(
    schema,
    groups.map((g) => g.entity.name),
  );
  return schema;
}

/** The schema Apollo serves and the REST facade executes: every root field behind its rule. */
export async function buildAppSchema(modules: readonly DomainModule[] = appModules): Promise<GraphQLSchema> {
  return applyPermissions(await buildBareSchema(modules));
}
