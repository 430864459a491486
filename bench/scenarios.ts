import type { Request } from 'express';
import { print, type GraphQLSchema } from 'graphql';
import { compileRoutes, type CompiledRoute } from '../src/rest/compile';
import { restTable } from '../src/rest/table';

/**
 * The operations measured, each reachable several ways: the REST facade, GraphQL directly with
 * the very document the REST row runs, GraphQL asking only for the stored columns the peer
 * answers, the peer (PostGraphile 5) with those columns, and the baseline server with and without
 * the row-level security transaction. Requests rotate over many feature ids so no single row
 * stays hot.
 */
export type ScenarioKey = 'find' | 'search20' | 'search200' | 'create';
export type Target =
  | 'rest'
  | 'rest-issuer'
  | 'rest-apikey'
  | 'graphql'
  | 'graphql-columns'
  | 'postgraphile'
  | 'baseline-rls'
  | 'baseline-plain'
  | 'rest-compare'
  | 'graphql-compare'
  | 'graphql-columns-compare';

/**
 * REST asked with another credential than the service's own HS256 token (bench/credentials.ts):
 * the same request, so any difference is the credential's verification.
 */
export const CREDENTIALED: Partial<Record<Target, 'issuerToken' | 'apiKey'>> = {
  'rest-issuer': 'issuerToken',
  'rest-apikey': 'apiKey',
};

/** The service of another checkout (BENCH_COMPARE_DIR), asked exactly what this one is asked. */
export const COMPARED: Partial<Record<Target, Target>> = {
  'rest-compare': 'rest',
  'graphql-compare': 'graphql',
  'graphql-columns-compare': 'graphql-columns',
};

/**
 * The feature's stored columns as both GraphQL servers name them in their answers (the peer's
 * `rowId` aliased to `id`): what the peer comparison asks of each. The REST shape adds the epic,
 * the task tally and `events` (from the history table), which the peer does not compute.
 */
export const PEER_COLUMNS = [
  'tenantId',
  'id',
  'created',
  'createdBy',
  'updated',
  'updatedBy',
  'name',
  'description',
  'epicId',
  'priority',
  'status',
  'tags',
  'estimatedPoints',
] as const;
const OUR_COLUMNS = PEER_COLUMNS.join(' ');
const THEIR_COLUMNS = PEER_COLUMNS.map((c) => (c === 'id' ? 'id: rowId' : c)).join(' ');

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
  /** The tenant of the token the load runs with. */
  tenantId: string;
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

/** The scenarios with the compared checkout's targets added (rest-compare beside rest...). */
export function withCompared(list: Scenario[]): Scenario[] {
  const added = Object.entries(COMPARED) as [Target, Target][];
  return list.map((s) => ({
    ...s,
    targets: [...s.targets, ...added.filter(([, own]) => s.targets.includes(own)).map(([t]) => t)],
    request: (target, i) => s.request(COMPARED[target] ?? target, i),
  }));
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
  const all: Target[] = [
    'rest',
    'graphql',
    'graphql-columns',
    'postgraphile',
    'baseline-rls',
    'baseline-plain',
  ];
  const gql = (query: string, variables: Record<string, unknown>): HttpRequest => ({
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query, variables }),
  });

  const searchScenario = (key: ScenarioKey, size: number): Scenario => {
    const q = SEARCH_QUERY(size);
    const document = graphqlBody(search, {}, q);
    const { input } = JSON.parse(document).variables as { input: unknown };
    const ours = gql(
      `query($input: SearchInput) { result: searchFeatures(input: $input) { content { ${OUR_COLUMNS} } totalElements } }`,
      { input },
    );
    const theirs = gql(
      `query($tenantId: UUID!, $first: Int!) { result: allFeatures(condition: { tenantId: $tenantId, status: "READY" }, orderBy: [NAME_ASC], first: $first) { nodes { ${THEIR_COLUMNS} } totalCount } }`,
      { tenantId: data.tenantId, first: size },
    );
    return {
      key,
      title: `REST dynamic-search, page of ${size}`,
      targets: all,
      request(target) {
        if (target === 'graphql') return { method: 'POST', path: '/graphql', body: document };
        if (target === 'graphql-columns') return ours;
        if (target === 'postgraphile') return theirs;
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
      targets: [...all, 'rest-issuer', 'rest-apikey'],
      request(target, i) {
        const id = ids[i % ids.length];
        if (target === 'graphql')
          return { method: 'POST', path: '/graphql', body: graphqlBody(find, { id }, {}) };
        if (target === 'graphql-columns')
          return gql(`query($id: ID!) { result: feature(id: $id) { ${OUR_COLUMNS} } }`, { id });
        if (target === 'postgraphile')
          return gql(
            `query($tenantId: UUID!, $id: UUID!) { result: featureByTenantIdAndRowId(tenantId: $tenantId, rowId: $id) { ${THEIR_COLUMNS} } }`,
            { tenantId: data.tenantId, id },
          );
        const path = `/hr/features/find/${id}`;
        return {
          method: 'GET',
          path:
            target === 'rest' || CREDENTIALED[target] ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
        };
      },
    },
    searchScenario('search20', 20),
    searchScenario('search200', 200),
    {
      key: 'create',
      title: 'REST create (POST)',
      targets: ['rest', 'graphql', 'baseline-rls', 'baseline-plain'],
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
