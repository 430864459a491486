import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { restTable } from '../../src/rest/table';
import type { RestRoute } from '../../src/rest/route';

/**
 * Well-formed requests for every row of the REST table, made from the row and the schema alone,
 * so tests that sweep the table (permission matrix, fuzzing) cover new operations by themselves.
 */
export interface SampleRequest {
  route: RestRoute;
  method: string;
  path: string;
  body?: unknown;
  /** The GraphQL arguments of the row's field, for mutating inputs. */
  args: readonly GraphQLArgument[];
}

export function argsOf(schema: GraphQLSchema, route: RestRoute): readonly GraphQLArgument[] {
  const field =
    schema.getQueryType()?.getFields()[route.field] ?? schema.getMutationType()?.getFields()[route.field];
  if (!field) throw new Error(`no field ${route.field}`);
  return field.args;
}

const COUNTRIES = ['NL', 'BE', 'DE', 'FR'];

export function sampleValue(type: GraphQLInputType, name = ''): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [sampleValue(inner.ofType, name)];
  const named = getNamedType(inner);
  if (isEnumType(named)) return named.getValues()[0].value;
  if (isInputObjectType(named)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(named.getFields()))
      if (isNonNullType(f.type)) out[f.name] = sampleValue(f.type, f.name);
    return out;
  }
  switch (named.name) {
    case 'Int':
      return 1;
    case 'Float':
      return 1.5;
    case 'Boolean':
      return true;
    case 'DateTimeISO':
    case 'DateTime':
      return '2026-11-22T10:15:00.000Z';
    case 'LocalDate':
    case 'Date':
      return '2026-11-22';
    default:
      if (/email/i.test(name)) return 'nobody@example.test';
      // Fields that are checked as codes: an ISO 3166 country, a VAT number with its country prefix.
      if (name === 'country') return COUNTRIES[Math.floor(Math.random() * COUNTRIES.length)];
      if (name === 'postalCode') return '1011 AB';
      if (/vatNumber$/i.test(name)) return `NL${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
      return randomUUID();
  }
}

const text = (v: unknown) => (Array.isArray(v) ? v.map(String).join(',') : String(v));

/**
 * Operations that withdraw the credential that calls them ("sign out everywhere"): a sweep makes
 * them last, since every request after them with the same credential is refused (401).
 */
export const WITHDRAWS_CALLER = new Set(['signOutEverywhere']);

export function sampleRequests(
  schema: GraphQLSchema,
  routes: readonly RestRoute[] = restTable,
): SampleRequest[] {
  const ordered = [
    ...routes.filter((r) => !WITHDRAWS_CALLER.has(r.field)),
    ...routes.filter((r) => WITHDRAWS_CALLER.has(r.field)),
  ];
  return ordered.map((route) => {
    const args = argsOf(schema, route);
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    let path = route.path;
    const query: string[] = [];
    let body: unknown;
    for (const param of params) {
      const arg = args.find(
        (a) =>
          a.name ===
          (Object.entries(route.args ?? {}).find(([, s]) => s.from === 'path' && s.name === param)?.[0] ??
            param),
      );
      path = path.replace(
        `{${param}}`,
        encodeURIComponent(text(arg ? sampleValue(arg.type, param) : randomUUID())),
      );
    }
    for (const arg of args) {
      const source = route.args?.[arg.name];
      if (params.includes(arg.name) && !source) continue;
      if (source?.from === 'body')
        body = isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type) ? [] : {};
      else if (
        (!source || source.from === 'query') &&
        isNonNullType(arg.type) &&
        (source as { default?: unknown })?.default === undefined
      ) {
        query.push(
          `${encodeURIComponent((source as { name?: string })?.name ?? arg.name)}=${encodeURIComponent(text(sampleValue(arg.type, arg.name)))}`,
        );
      }
    }
    // Operations that read their own query parameters (date ranges, batch search) get the usual ones.
    if (/by-widget/.test(route.path)) query.push('start=2026-11-01', 'end=2026-11-30');
    if (/batch-search/.test(route.path)) query.push(`stockSiteId=${randomUUID()}`);
    if (/variables\/\{typeId\}\/search/.test(route.path)) query.push('search=x');
    return {
      route,
      method: route.method,
      path: query.length ? `${path}?${query.join('&')}` : path,
      body,
      args,
    };
  });
}
