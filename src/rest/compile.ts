import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Request } from 'express';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { getVariableValues } from 'graphql/execution/values';
import type { ExecutionResult, OperationDefinitionNode } from 'graphql';
import { badRequest } from '../errors';
import type { ArgSource, RestRoute } from './route';
import { queryList } from './search-params';
import { checkOf, ruleTree, type Check } from '../permissions/rules';

/**
 * Turns the REST table into executable operations once, at start-up: each row gets a GraphQL
 * document whose selection is generated from the field's return type (every field a REST client
 * sees, nothing more), parsed and validated against the schema Apollo serves. A row that does
 * not fit the schema stops the service from starting.
 */
export interface CompiledRoute {
  route: RestRoute;
  document: DocumentNode;
  /** Reads the GraphQL variables from a request; throws 400 for malformed input. */
  variables(req: Request): Record<string, unknown>;
  /** The Express form of the path. */
  expressPath: string;
  /** The root field's permission check, run before the input is read. */
  check: Check;
  /** Executes the document (compiled once to a function by graphql-jit) with a request's context. */
  execute(contextValue: unknown, variableValues: Record<string, unknown>): Promise<ExecutionResult>;
}

const MAX_SELECTION_DEPTH = 8;

/** Every field of `type` a REST client sees, recursively; fields marked `rest: false` are left out. */
export function selectionOf(type: GraphQLObjectType, seen: string[] = []): string {
  if (seen.length >= MAX_SELECTION_DEPTH) return '';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.extensions?.rest === false) continue;
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isObjectType(named)) {
      if (seen.includes(named.name)) continue;
      const inner = selectionOf(named, [...seen, type.name]);
      if (inner) parts.push(`${field.name} ${inner}`);
    } else {
      parts.push(field.name);
    }
  }
  return parts.length ? `{ ${parts.join(' ')} }` : '';
}

function rootField(
  schema: GraphQLSchema,
  name: string,
): { kind: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> } {
  const q = schema.getQueryType()?.getFields()[name];
  if (q) return { kind: 'query', field: q };
  const m = schema.getMutationType()?.getFields()[name];
  if (m) return { kind: 'mutation', field: m };
  throw new Error(`REST table names GraphQL field "${name}", which the schema does not have`);
}

const toExpressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/** Reads text from a path or query string as a value of the GraphQL input type `type`. */
function readText(type: GraphQLInputType, raw: unknown, label: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const items = queryList(raw, label)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return items.map((v) => readText(inner.ofType, v, label));
  }
  if (Array.isArray(raw)) throw badRequest(`${label} must be given once`);
  if (typeof raw !== 'string') throw badRequest(`${label} must be text`);
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Int':
        if (!/^-?\d{1,9}$/.test(raw)) throw badRequest(`${label} must be an integer, got "${raw}"`);
        return Number(raw);
      case 'Float': {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n))
          throw badRequest(`${label} must be a number, got "${raw}"`);
        return n;
      }
      case 'Boolean':
        if (raw !== 'true' && raw !== 'false')
          throw badRequest(`${label} must be true or false, got "${raw}"`);
        return raw === 'true';
      default:
        return raw;
    }
  }
  if (isEnumType(inner)) {
    if (!inner.getValue(raw)) {
      throw badRequest(
        `${label} must be one of ${inner
          .getValues()
          .map((v) => v.name)
          .join(', ')}, got "${raw}"`,
      );
    }
    return raw;
  }
  throw new Error(`${label}: a ${String(type)} cannot come from text`);
}

/** Keeps only the fields an input type knows, so REST clients may send whole records (tenantId, events...). */
export function prune(type: GraphQLInputType, value: unknown): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return value;
  if (isListType(inner)) return Array.isArray(value) ? value.map((v) => prune(inner.ofType, v)) : value;
  if (isInputObjectType(inner) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = inner.getFields();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (fields[k]) out[k] = prune(fields[k].type, v);
    }
    return out;
  }
  return value;
}

function argReader(route: RestRoute, arg: GraphQLArgument): (req: Request) => unknown {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const source: ArgSource =
    route.args?.[arg.name] ?? (pathParams.includes(arg.name) ? { from: 'path' } : { from: 'query' });
  const required = isNonNullType(arg.type);
  switch (source.from) {
    case 'path': {
      const name = source.name ?? arg.name;
      if (!pathParams.includes(name))
        throw new Error(`${route.method} ${route.path}: no path parameter {${name}}`);
      return (req) => readText(arg.type, req.params[name], `path parameter ${name}`);
    }
    case 'query': {
      const name = source.name ?? arg.name;
      return (req) => {
        const raw = (req.query as Record<string, unknown>)[name];
        if (raw === undefined || raw === '') {
          if (source.default !== undefined) return source.default;
          if (required) throw badRequest(`query parameter ${name} is required`);
          return undefined;
        }
        return readText(arg.type, raw, `query parameter ${name}`);
      };
    }
    case 'body':
      return (req) => {
        const value = req.body;
        if (value === undefined || value === null) {
          if (source.default !== undefined) return source.default;
          if (required) throw badRequest('a JSON request body is required');
          return undefined;
        }
        return prune(arg.type, value);
      };
    case 'request':
      return source.read;
  }
}

export function compileRoute(
  schema: GraphQLSchema,
  route: RestRoute,
  rules = ruleTree(schema),
): CompiledRoute {
  const { kind, field } = rootField(schema, route.field);
  const rule = rules[kind === 'query' ? 'Query' : 'Mutation'][route.field];
  const check = rule && checkOf(rule);
  if (!check) throw new Error(`REST ${route.method} ${route.path}: ${route.field} has no permission rule`);
  const returned = getNamedType(field.type);
  const selection = isObjectType(returned) ? selectionOf(returned) : '';
  const varDefs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const callArgs = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const opName = `Rest_${route.method}_${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`;
  const text = `${kind} ${opName}${varDefs ? `(${varDefs})` : ''} { result: ${route.field}${callArgs ? `(${callArgs})` : ''} ${selection} }`;
  const document = parse(text);
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new Error(`REST ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
  }
  for (const name of Object.keys(route.args ?? {})) {
    if (!field.args.some((a) => a.name === name))
      throw new Error(`REST ${route.method} ${route.path}: ${route.field} has no argument ${name}`);
  }
  const readers = field.args.map((a) => [a.name, argReader(route, a)] as const);
  // graphql-jit turns the document into a function once; executing it then skips graphql's
  // per-request walk of the document (about a third of a page of 200's CPU, bench/). The
  // schema, its resolvers and its permission rules are the same ones Apollo runs.
  const jitted = compileQuery(schema, document, opName);
  const variableDefinitions = (document.definitions[0] as OperationDefinitionNode).variableDefinitions ?? [];
  if (!isCompiledQuery(jitted)) {
    const reasons = (jitted.errors ?? []).map((e) => e.message).join('; ');
    throw new Error(
      `REST ${route.method} ${route.path}: graphql-jit cannot compile its document: ${reasons}`,
    );
  }
  return {
    route,
    document,
    execute: async (contextValue, variableValues) => {
      const result = await jitted.query(undefined, contextValue, variableValues);
      // Only a variable error comes back without data. graphql's own coercion then says it
      // again, naming the field at fault ("input.picture.type"), which graphql-jit's does not;
      // that message becomes the 400's detail.
      if (result.errors && !('data' in result)) {
        const coerced = getVariableValues(schema, variableDefinitions, variableValues, { maxErrors: 1 });
        if (coerced.errors) return { errors: coerced.errors };
      }
      return result;
    },
    expressPath: toExpressPath(route.path),
    check,
    variables(req) {
      const vars: Record<string, unknown> = {};
      for (const [name, read] of readers) {
        const value = read(req);
        if (value !== undefined) vars[name] = value;
      }
      return vars;
    },
  };
}

/** Literal segments before parameters, so `/x/find` is tried before `/x/{id}`. */
export function bySpecificity(a: RestRoute, b: RestRoute): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith('{');
    const pb = sb[i].startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return sb.length - sa.length;
}

export function compileRoutes(schema: GraphQLSchema, routes: readonly RestRoute[]): CompiledRoute[] {
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) throw new Error(`REST table lists ${key} twice`);
    seen.add(key);
  }
  const rules = ruleTree(schema);
  return [...routes].sort(bySpecificity).map((r) => compileRoute(schema, r, rules));
}
