import { GraphQLSchema } from 'graphql';
import { applyMiddleware } from 'graphql-middleware';
import { deny, rule, shield } from 'graphql-shield';
import type { IRule } from 'graphql-shield';
import { getMetadataStorage } from 'type-graphql';
import type { Context } from '../context';
import { forbidden, unauthorized } from '../errors';
import { moduleOfPermission, permissionName, SUPER_ADMIN, type Resource, type Verb } from './catalog';

/**
 * Permission rules of the root fields. A resolver method names its rule with @Requires; the
 * rules are applied with graphql-shield through a graphql-middleware field map of Query and
 * Mutation only, so object fields below the root run without a permission wrapper; Subscription
 * fields are guarded where they start (guardSubscriptions).
 */
const rulesByResolver = new Map<Function, Map<string, IRule>>();

export function Requires(r: IRule): MethodDecorator {
  return (target, key) => {
    const ctor = (target as { constructor: Function }).constructor;
    if (!rulesByResolver.has(ctor)) rulesByResolver.set(ctor, new Map());
    rulesByResolver.get(ctor)!.set(String(key), r);
  };
}

/**
 * What a rule decides, as a plain function of the context: graphql-shield runs it for GraphQL,
 * and the REST facade runs it before reading a request's input, so a caller without the
 * permission gets 403 whatever else is wrong with the request.
 */
export type Check = (ctx: Context) => true | Error;
const checks = new Map<IRule, Check>();

function defineRule(name: string, check: Check): IRule {
  const r = rule(name, { cache: 'contextual' })((_p, _a, ctx: Context) => check(ctx));
  checks.set(r, check);
  return r;
}

/** The check behind a rule made here (undefined for rules from elsewhere). */
export const checkOf = (r: IRule): Check | undefined => checks.get(r);

/** The permission a rule requires, for documentation and the permission matrix. */
export function describeRule(r: IRule): {
  kind: 'authenticated' | 'superAdmin' | 'permission';
  permission?: string;
} {
  const name = (r as unknown as { name: string }).name;
  if (name.startsWith('permission:'))
    return { kind: 'permission', permission: name.slice('permission:'.length) };
  return { kind: name === 'superAdmin' ? 'superAdmin' : 'authenticated' };
}

/** Any valid credential: for the caller's own records (my-access, own notifications...). */
export const authenticated = defineRule('authenticated', (ctx) => (ctx.caller ? true : unauthorized()));

const permissionRules = new Map<string, IRule>();

/**
 * The caller holds `name` (or is the super-admin, who holds every permission), and the module
 * of its resource is on for the caller's tenant (catalog.ts, RESOURCE_MODULES).
 */
export function permission(name: string): IRule {
  let r = permissionRules.get(name);
  if (!r) {
    const module = moduleOfPermission(name);
    r = defineRule(`permission:${name}`, (ctx) => {
      if (!ctx.caller) return unauthorized();
      if (module && ctx.caller.modulesOff?.has(module))
        return forbidden(`the ${module} module is switched off for this tenant`);
      return ctx.caller.permissions.has(name)
        ? true
        : forbidden(`this operation needs the ${name} permission`);
    });
    permissionRules.set(name, r);
  }
  return r;
}

export const can = (verb: Verb, resource: Resource) => permission(permissionName(verb, resource));

export const superAdminOnly = defineRule('superAdmin', (ctx) => {
  if (!ctx.caller) return unauthorized();
  return ctx.caller.superAdmin ? true : forbidden(`this operation needs the ${SUPER_ADMIN} role`);
});

type RootType = 'Query' | 'Mutation' | 'Subscription';
const ROOT_TYPES: readonly RootType[] = ['Query', 'Mutation', 'Subscription'];

const rootFields = (schema: GraphQLSchema, type: RootType) =>
  (type === 'Query'
    ? schema.getQueryType()
    : type === 'Mutation'
      ? schema.getMutationType()
      : schema.getSubscriptionType()
  )?.getFields() ?? {};

/** The rule of every root field of the schema that has one. */
export function ruleTree(schema: GraphQLSchema): Record<RootType, Record<string, IRule>> {
  const storage = getMetadataStorage();
  const tree: Record<RootType, Record<string, IRule>> = { Query: {}, Mutation: {}, Subscription: {} };
  const place = (type: RootType, defs: { target: Function; methodName: string; schemaName: string }[]) => {
    const fields = rootFields(schema, type);
    for (const def of defs) {
      const r = rulesByResolver.get(def.target)?.get(def.methodName);
      if (fields[def.schemaName] && r) tree[type][def.schemaName] = r;
    }
  };
  place('Query', storage.queries);
  place('Mutation', storage.mutations);
  place('Subscription', storage.subscriptions);
  return tree;
}

/** Root fields without a rule: must be empty (a test checks it; start-up refuses otherwise). */
export function unguardedRootFields(schema: GraphQLSchema): string[] {
  const tree = ruleTree(schema);
  const missing: string[] = [];
  for (const type of ROOT_TYPES)
    for (const name of Object.keys(rootFields(schema, type)))
      if (!tree[type][name]) missing.push(`${type}.${name}`);
  return missing;
}

/**
 * Subscription root fields get their rule on `subscribe`, where the subscription starts: the
 * middleware would wrap `resolve`, which runs once per event. Their rules are this module's own,
 * so their checks are known; a rule from elsewhere denies.
 */
function guardSubscriptions(schema: GraphQLSchema, rules: Record<string, IRule>): void {
  for (const [name, field] of Object.entries(rootFields(schema, 'Subscription'))) {
    const check = checkOf(rules[name]) ?? (() => forbidden());
    const subscribe = field.subscribe;
    if (!subscribe) throw new Error(`subscription ${name} has no subscribe function`);
    field.subscribe = (source, args, ctx: Context, info) => {
      const allowed = check(ctx);
      if (allowed !== true) throw allowed;
      return subscribe(source, args, ctx, info);
    };
  }
}

export function applyPermissions(schema: GraphQLSchema): GraphQLSchema {
  const missing = unguardedRootFields(schema);
  if (missing.length > 0) throw new Error(`root fields without a permission rule: ${missing.join(', ')}`);
  const tree = ruleTree(schema);
  const generator = shield(tree, {
    fallbackRule: deny,
    allowExternalErrors: true,
    fallbackError: forbidden(),
  });
  const full = generator.generate(schema) as Record<string, unknown>;
  const guarded = applyMiddleware(schema, { Query: full.Query, Mutation: full.Mutation } as never);
  guardSubscriptions(guarded, tree.Subscription);
  return guarded;
}
