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
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Request } from 'express';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { getVariableValues } from 'graphql/execution/values';
import type { ExecutionResult, GraphQLError, OperationDefinitionNode } from 'graphql';
import { AppError, invalidField, problems, problemsOf, REQUEST, type Problem } from '../errors';
import { requestErrorProblem } from '../error-mapping';
import { checkOf, ruleTree, type Check } from '../permissions/rules';
import { pathParamsOf, sourceOf, type RestRoute } from './route';
import { queryList, SEARCH_QUERY_NAMES, searchFromQuery } from './search-params';

/**
 * Turns the REST table into executable operations once, at start-up: each row gets a GraphQL
 * document whose selection is generated from the field's return type (every field a REST client
 * sees, nothing more), parsed at start-up, and validated against the schema Apollo serves when
 * it is compiled (see compileRoute). A row naming a field, argument or permission the schema
 * lacks stops the service from starting.
 */
export interface CompiledRoute {
  route: RestRoute;
  document: DocumentNode;
  /** Whether the document is a query (it only reads) or a mutation. */
  operation: 'query' | 'mutation';
  /** Reads the GraphQL variables from a request; throws 400 for malformed input. */
  variables(req: Request): Record<string, unknown>;
  /** The Express form of the path. */
  expressPath: string;
  /** The root field's permission check, run before the input is read. */
  check: Check;
  /** Validates the document and compiles it to a function with graphql-jit, once; execute does it on first use. */
  compile(): void;
  /** Executes the document (compiled once to a function by graphql-jit) with a request's context. */
  execute(contextValue: unknown, variableValues: Record<string, unknown>): Promise<ExecutionResult>;
}

const MAX_SELECTION_DEPTH = 8;

/**
 * Every field of `type` a REST client sees, recursively; fields marked `rest: false` are left out
 * unless `all` (RestRoute.allFields).
 */
export function selectionOf(type: GraphQLObjectType, seen: string[] = [], all = false): string {
  if (seen.length >= MAX_SELECTION_DEPTH) return '';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.extensions?.rest === false && !all) continue;
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isObjectType(named)) {
      if (seen.includes(named.name)) continue;
      const inner = selectionOf(named, [...seen, type.name], all);
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
function readText(type: GraphQLInputType, raw: unknown, name: string, label: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  const fail = (reason: string) => invalidField(name, reason, `${label} ${reason}`);
  if (isListType(inner)) {
    const items = queryList(raw, name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return items.map((v) => readText(inner.ofType, v, name, label));
  }
  if (Array.isArray(raw)) throw fail('must be given once');
  if (typeof raw !== 'string') throw fail('must be text');
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Int':
        if (!/^-?\d{1,9}$/.test(raw)) throw fail(`must be an integer, got "${raw}"`);
        return Number(raw);
      case 'Float': {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) throw fail(`must be a number, got "${raw}"`);
        return n;
      }
      case 'Boolean':
        if (raw !== 'true' && raw !== 'false') throw fail(`must be true or false, got "${raw}"`);
        return raw === 'true';
      default:
        return raw;
    }
  }
  if (isEnumType(inner)) {
    if (!inner.getValue(raw)) {
      throw fail(
        `must be one of ${inner
          .getValues()
          .map((v) => v.name)
          .join(', ')}, got "${raw}"`,
      );
    }
    return raw;
  }
  throw new Error(`${label}: a ${String(type)} cannot come from text`);
}

const jsonKind = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * Where a JSON body's shape differs from the input type's: a list must be a JSON array, an input
 * object a JSON object, an id a string. GraphQL's own coercion would take a lone value for a list
 * of one (`42` for `[ID!]`) and an array for an object, which a REST client never means. Values
 * of the right kind are left to GraphQL's coercion and validation, which name the rest.
 */
export function shapeProblems(type: GraphQLInputType, value: unknown, path: string): Problem[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return [];
  const at = path || REQUEST;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return [{ field: at, reason: `must be a JSON array, got ${jsonKind(value)}` }];
    return value.flatMap((v, i) => shapeProblems(inner.ofType, v, `${path}[${i}]`));
  }
  if (isInputObjectType(inner)) {
    if (typeof value !== 'object' || Array.isArray(value))
      return [{ field: at, reason: `must be a JSON object, got ${jsonKind(value)}` }];
    const fields = inner.getFields();
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      fields[k] ? shapeProblems(fields[k].type, v, path ? `${path}.${k}` : k) : [],
    );
  }
  if (isScalarType(inner) && inner.name === 'ID' && typeof value !== 'string')
    return [{ field: at, reason: `must be a string id, got ${jsonKind(value)}` }];
  return [];
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
  const pathParams = pathParamsOf(route);
  const source = sourceOf(route, arg.name, pathParams);
  const required = isNonNullType(arg.type);
  switch (source.from) {
    case 'path': {
      const name = source.name ?? arg.name;
      if (!pathParams.includes(name))
        throw new Error(`${route.method} ${route.path}: no path parameter {${name}}`);
      return (req) => readText(arg.type, req.params[name], name, `path parameter ${name}`);
    }
    case 'query': {
      const name = source.name ?? arg.name;
      return (req) => {
        const raw = (req.query as Record<string, unknown>)[name];
        if (raw === undefined || raw === '') {
          if (source.default !== undefined) return source.default;
          if (required) throw invalidField(name, 'is required', `query parameter ${name} is required`);
          return undefined;
        }
        return readText(arg.type, raw, name, `query parameter ${name}`);
      };
    }
    case 'body':
      return (req) => {
        if (source.orQuery && req.body === undefined) return flatQueryInput(arg, req);
        if (source.orQuery) {
          const both = [...flatFields(arg)].filter((f) => f.name in (req.query as object));
          if (both.length)
            throw problems(
              400,
              both.map((f) => ({
                field: f.name,
                reason: 'is given in the body or as a query parameter, not both',
              })),
            );
        }
        const value = req.body;
        if (value === undefined || value === null) {
          if (source.default !== undefined) return source.default;
          if (required)
            throw invalidField(REQUEST, 'a JSON request body is required', 'a JSON request body is required');
          return undefined;
        }
        const wrong = shapeProblems(arg.type, value, '');
        if (wrong.length) {
          const said = (p: Problem) => (p.field === REQUEST ? `the request body ${p.reason}` : undefined);
          throw problems(
            400,
            wrong.map((p) => ({ ...p, message: said(p) })),
          );
        }
        return prune(arg.type, value);
      };
    case 'request':
      return source.read;
  }
}

/** The fields of an input object that can be read from text, for a body sent as query parameters. */
function flatFields(arg: GraphQLArgument): GraphQLInputField[] {
  const named = getNamedType(arg.type);
  if (!isInputObjectType(named))
    throw new Error(`${arg.name}: only an input object can come from flat parameters`);
  return Object.values(named.getFields()).filter((f) => {
    const leaf = getNamedType(f.type);
    return (
      (isScalarType(leaf) || isEnumType(leaf)) && !isListType(isNonNullType(f.type) ? f.type.ofType : f.type)
    );
  });
}

/** An input object from query parameters named after its fields; every missing or bad one is named. */
function flatQueryInput(arg: GraphQLArgument, req: Request): Record<string, unknown> {
  const query = req.query as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  const found: (Problem & { message: string })[] = [];
  for (const f of flatFields(arg)) {
    const raw = query[f.name];
    if (raw === undefined || raw === '') {
      if (isNonNullType(f.type) && f.defaultValue === undefined)
        found.push({
          field: f.name,
          reason: 'is required',
          message: `query parameter ${f.name} is required`,
        });
      continue;
    }
    try {
      value[f.name] = readText(f.type, raw, f.name, `query parameter ${f.name}`);
    } catch (err) {
      found.push(...problemsFrom(err));
    }
  }
  if (found.length) throw problems(400, found);
  return value;
}

/** The query parameters a row reads: every other one is a client's mistake (a typo, a stale name). */
export function queryNamesOf(route: RestRoute, args: readonly GraphQLArgument[]): Set<string> {
  const pathParams = pathParamsOf(route);
  const names = new Set<string>();
  for (const arg of args) {
    const source = sourceOf(route, arg.name, pathParams);
    if (source.from === 'query') names.add(source.name ?? arg.name);
    if (source.from === 'body' && source.orQuery) flatFields(arg).forEach((f) => names.add(f.name));
    if (source.from !== 'request') continue;
    if (source.read === searchFromQuery) SEARCH_QUERY_NAMES.forEach((n) => names.add(n));
    source.query?.forEach((n) => names.add(n));
  }
  return names;
}

/** Turns what went wrong while reading a request into its problems; anything else is thrown on. */
function problemsFrom(err: unknown): (Problem & { message: string })[] {
  if (err instanceof AppError && err.status === 400) return problemsOf(err);
  throw err;
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
  const selection = isObjectType(returned) ? selectionOf(returned, [], route.allFields) : '';
  const varDefs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const callArgs = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const opName = `Rest_${route.method}_${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`;
  const text = `${kind} ${opName}${varDefs ? `(${varDefs})` : ''} { result: ${route.field}${callArgs ? `(${callArgs})` : ''} ${selection} }`;
  const document = parse(text);
  for (const name of Object.keys(route.args ?? {})) {
    if (!field.args.some((a) => a.name === name))
      throw new Error(`REST ${route.method} ${route.path}: ${route.field} has no argument ${name}`);
  }
  const readers = field.args.map((a) => [a.name, argReader(route, a)] as const);
  const queryNames = queryNamesOf(route, field.args);
  const variableDefinitions = (document.definitions[0] as OperationDefinitionNode).variableDefinitions ?? [];
  // graphql-jit turns the document into a function once; executing it then skips graphql's
  // per-request walk of the document, a large share of a page's CPU (bench/README.md). The
  // schema, its resolvers and its permission rules are the same ones Apollo runs. It validates
  // and compiles on a row's first request rather than here: both walk the whole selection, which
  // for every row was the largest part of a start, and most processes serve a fraction of the
  // rows. The documents are generated from the schema, so they hold by construction;
  // test/foundation/rest-routing.test.ts validates and compiles every row, so a document that
  // does not fails the suite, not a client.
  let jitted: CompiledQuery | undefined;
  const compile = (): CompiledQuery => {
    if (jitted) return jitted;
    const errors = validate(schema, document);
    if (errors.length > 0) {
      throw new Error(`REST ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
    }
    const made = compileQuery(schema, document, opName);
    if (!isCompiledQuery(made)) {
      const reasons = (made.errors ?? []).map((e) => e.message).join('; ');
      throw new Error(
        `REST ${route.method} ${route.path}: graphql-jit cannot compile its document: ${reasons}`,
      );
    }
    return (jitted = made);
  };
  return {
    route,
    document,
    operation: kind,
    compile,
    execute: async (contextValue, variableValues) => {
      const result = await compile().query(undefined, contextValue, variableValues);
      // Only a variable error comes back without data. graphql's own coercion then says it
      // again, naming the field at fault ("input.picture.type"), which graphql-jit's does not;
      // that message becomes the 400's detail.
      if (result.errors && !('data' in result)) {
        const coerced = getVariableValues(schema, variableDefinitions, variableValues);
        if (coerced.errors) return { errors: [coercionError(coerced.errors)] };
      }
      return result;
    },
    expressPath: toExpressPath(route.path),
    check,
    variables(req) {
      const vars: Record<string, unknown> = {};
      const found: (Problem & { message: string })[] = [];
      const unread = new Set<string>();
      for (const name of Object.keys(req.query as object)) {
        if (!queryNames.has(name))
          found.push({
            field: name,
            reason: 'is not a parameter of this operation',
            message: `query parameter ${name} is not a parameter of this operation`,
          });
      }
      for (const [name, read] of readers) {
        try {
          const value = read(req);
          if (value !== undefined) vars[name] = value;
        } catch (err) {
          found.push(...problemsFrom(err));
          unread.add(name);
        }
      }
      if (found.length === 0) return vars;
      // Name every culprit at once: the values that were read are checked against their types
      // too, so a client fixes its request in one round.
      const readable = variableDefinitions.filter((d) => !unread.has(d.variable.name.value));
      const coerced = getVariableValues(schema, readable, vars);
      for (const e of coerced.errors ?? []) {
        const p = requestErrorProblem(e.message);
        if (p) found.push({ ...p, message: `${p.field}: ${p.reason}` });
      }
      throw problems(400, found);
    },
  };
}

/** graphql's variable errors as one 400 naming each field at fault. */
function coercionError(errors: readonly GraphQLError[]): GraphQLError {
  if (errors.length === 1) return errors[0];
  const found = errors.map((e) => requestErrorProblem(e.message) ?? { field: REQUEST, reason: e.message });
  return problems(400, found);
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
