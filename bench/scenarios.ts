import type { Request } from 'express';
import { print, type GraphQLSchema } from 'graphql';
import { compileRoutes, type CompiledRoute } from '../src/rest/compile';
import { restTable } from '../src/rest/table';

/**
 * The operations measured, each reachable four ways: the REST facade, GraphQL directly with the
 * very document the REST row runs, and the baseline server with and without the row-level
 * security transaction. Requests rotate over many feature ids so no single row stays hot.
 */
export type ScenarioKey = 'find' | 'search20' | 'search200' | 'create';
export type Target = 'rest' | 'graphql' | 'baseline-rls' | 'baseline-plain';

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Scenario {
  key: ScenarioKey;
  title: string;
  targets: Target[];
  /** The i-th request of a run against `target`. */
  request(target: Target, i: number): HttpRequest;
}

export interface ScenarioData {
  featureIds: string[];
  epicIds: string[];
}

const SEARCH_QUERY = (size: number) => ({ filters: 'status:eq:READY', sort: 'name,asc', size: String(size) });
const queryString = (q: Record<string, string>) => new URLSearchParams(q).toString();

/** The GraphQL request the REST row would execute for these path parameters and query string. */
function graphqlBody(
  compiled: CompiledRoute,
  params: Record<string, string>,
  query: Record<string, string>,
  body?: unknown,
): string {
  const variables = compiled.variables({ params, query, body } as unknown as Request);
  return JSON.stringify({ query: print(compiled.document), variables });
}

/** A new feature as a client would post it: a ready feature of an epic, with tags. */
export function newFeature(i: number, epicIds: string[]) {
  return {
    name: `Bench feature ${i}`,
    description: 'Created under load by the benchmark.',
    epicId: epicIds[i % epicIds.length],
    priority: 'MEDIUM',
    status: 'READY',
    tags: ['bench', 'api'],
    estimatedPoints: 3,
  };
}

export function scenarios(schema: GraphQLSchema, data: ScenarioData): Scenario[] {
  const compiled = compileRoutes(schema, restTable);
  const row = (method: string, path: string) => {
    const found = compiled.find((c) => c.route.method === method && c.route.path === path);
    if (!found) throw new Error(`the REST table has no ${method} ${path}`);
    return found;
  };
  const ids = data.featureIds;
  const find = row('GET', '/hr/features/find/{id}');
  const search = row('GET', '/hr/features/dynamic-search');
  const create = row('POST', '/hr/features');
  const baselinePrefix = (target: Target) => `/${target.replace('baseline-', '')}`;
  const all: Target[] = ['rest', 'graphql', 'baseline-rls', 'baseline-plain'];

  const searchScenario = (key: ScenarioKey, size: number): Scenario => {
    const q = SEARCH_QUERY(size);
    const gql = graphqlBody(search, {}, q);
    return {
      key,
      title: `REST dynamic-search, page of ${size}`,
      targets: all,
      request(target) {
        if (target === 'graphql') return { method: 'POST', path: '/graphql', body: gql };
        const path = `/hr/features/dynamic-search?${queryString(q)}`;
        return {
          method: 'GET',
          path: target === 'rest' ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
        };
      },
    };
  };

  return [
    {
      key: 'find',
      title: 'REST find/{id}',
      targets: all,
      request(target, i) {
        const id = ids[i % ids.length];
        if (target === 'graphql')
          return { method: 'POST', path: '/graphql', body: graphqlBody(find, { id }, {}) };
        const path = `/hr/features/find/${id}`;
        return {
          method: 'GET',
          path: target === 'rest' ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
        };
      },
    },
    searchScenario('search20', 20),
    searchScenario('search200', 200),
    {
      key: 'create',
      title: 'REST create (POST)',
      targets: all,
      request(target, i) {
        const input = newFeature(i, data.epicIds);
        if (target === 'graphql')
          return { method: 'POST', path: '/graphql', body: graphqlBody(create, {}, {}, input) };
        const path = '/hr/features';
        return {
          method: 'POST',
          path: target === 'rest' ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
          body: JSON.stringify(input),
        };
      },
    },
  ];
}
