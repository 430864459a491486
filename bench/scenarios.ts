import { randomUUID } from 'node:crypto';
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
export type ScenarioKey =
  'find' | 'search20' | 'search200' | 'create' | 'update' | 'delete' | 'bulkdelete' | 'mixed';

/** The write scenarios: they act on the write tenant, which no read scenario measures. */
export const WRITES: ScenarioKey[] = ['create', 'update', 'delete', 'bulkdelete', 'mixed'];
/** Features a bulk delete request names. */
export const BULK = 20;
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
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  /** Another bearer token than the run's (a write in the mixed load goes to the write tenant). */
  token?: string;
}

/** One way of asking the peer the same question; the run keeps the fastest (bench/README.md). */
export interface PeerForm {
  name: string;
  request(i: number): HttpRequest;
}

export interface Scenario {
  key: ScenarioKey;
  title: string;
  targets: Target[];
  /** The i-th request of a run against `target`. */
  request(target: Target, i: number): HttpRequest;
  /** The peer's forms of the question, when there are several; `request` asks the chosen one. */
  peerForms?: PeerForm[];
  /** The index in `peerForms` that `request` asks (the fastest, once measured). */
  peerForm?: number;
  /** Existing features each request deletes: a pool of this many per request is made before a run. */
  deletes?: number;
  /** The target whose request the statement capture records (rest unless it has none). */
  captureTarget?: Target;
}

export interface ScenarioData {
  /** The tenant of the token the load runs with. */
  tenantId: string;
  featureIds: string[];
  epicIds: string[];
  /** The tenant the writes go to, with the token that writes there. */
  write?: { tenantId: string; featureIds: string[]; epicIds: string[]; token: string; email: string };
  /** Per target, the existing features of the write tenant its deletes take in turn (filled before each run). */
  pools?: Map<Target, string[]>;
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

/**
 * The scenarios with the compared checkout's targets added (rest-compare beside rest...), which
 * ask `theirs` (the same scenarios over the compared checkout's data and pools) what its own
 * target would be asked.
 */
export function withCompared(list: Scenario[], theirs: Scenario[]): Scenario[] {
  const added = Object.entries(COMPARED) as [Target, Target][];
  return list.map((s) => {
    const other = theirs.find((t) => t.key === s.key)!;
    return {
      ...s,
      targets: [...s.targets, ...added.filter(([, own]) => s.targets.includes(own)).map(([t]) => t)],
      request: (target, i) => {
        const own = COMPARED[target];
        return own ? other.request(own, i) : s.request(target, i);
      },
    };
  });
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
    // Row-level security already limits the rows to the token's tenant: naming the tenant in the
    // condition as well asks the same question another way, and the run keeps the faster.
    const peerPage = (condition: string, variables: Record<string, unknown>) =>
      gql(
        `query(${Object.keys(variables)
          .map((v) => `$${v}: ${v === 'first' ? 'Int!' : 'UUID!'}`)
          .join(
            ', ',
          )}) { result: allFeatures(condition: { ${condition} }, orderBy: [NAME_ASC], first: $first) { nodes { ${THEIR_COLUMNS} } totalCount } }`,
        variables,
      );
    const peerForms: PeerForm[] = [
      {
        name: 'condition on status only (the policy gives the tenant)',
        request: () => peerPage('status: "READY"', { first: size }),
      },
      {
        name: 'condition on tenantId and status',
        request: () =>
          peerPage('tenantId: $tenantId, status: "READY"', { tenantId: data.tenantId, first: size }),
      },
    ];
    const scenario: Scenario = {
      key,
      title: `REST dynamic-search, page of ${size}`,
      targets: all,
      peerForms,
      peerForm: 0,
      request(target, i) {
        if (target === 'graphql') return { method: 'POST', path: '/graphql', body: document };
        if (target === 'graphql-columns') return ours;
        if (target === 'postgraphile') return peerForms[scenario.peerForm ?? 0].request(i);
        const path = `/hr/features/dynamic-search?${queryString(q)}`;
        return {
          method: 'GET',
          path: target === 'rest' ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
        };
      },
    };
    return scenario;
  };

  const reads: Scenario[] = [
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
  ];
  return [...reads, ...writeScenarios(data, reads, { create, gql, baselinePrefix })];
}

/**
 * The writes, all to the write tenant: the service through REST and GraphQL against the peer's
 * own mutations on the same table under the same row-level security. The feature family has no
 * REST PATCH and no REST DELETE of one id (the specification lists neither): an update is
 * GraphQL's updateFeature, a REST delete is delete-list with one id.
 */
function writeScenarios(
  data: ScenarioData,
  reads: Scenario[],
  helpers: {
    create: CompiledRoute;
    gql: (query: string, variables: Record<string, unknown>) => HttpRequest;
    baselinePrefix: (target: Target) => string;
  },
): Scenario[] {
  const w = data.write;
  if (!w) return [];
  const { create, baselinePrefix } = helpers;
  const gql = (query: string, variables: Record<string, unknown>): HttpRequest => ({
    ...helpers.gql(query, variables),
    token: w.token,
  });
  const pool = (target: Target) => {
    const ids = data.pools?.get(target);
    if (!ids?.length) throw new Error(`no features to delete were made for ${target}`);
    return ids;
  };
  const createRequest = (target: Target, i: number): HttpRequest => {
    const input = newFeature(i, w.epicIds);
    if (target === 'graphql')
      return { method: 'POST', path: '/graphql', body: graphqlBody(create, {}, {}, input), token: w.token };
    if (target === 'postgraphile') {
      // The peer stores what its client sends: the id and the audit columns the service fills
      // in itself.
      const now = new Date().toISOString();
      const feature = {
        ...input,
        tenantId: w.tenantId,
        rowId: randomUUID(),
        created: now,
        createdBy: w.email,
        updated: now,
        updatedBy: w.email,
      };
      return gql(
        `mutation($feature: FeatureInput!) { result: createFeature(input: { feature: $feature }) { feature { ${THEIR_COLUMNS} } } }`,
        { feature },
      );
    }
    const path = '/hr/features';
    return {
      method: 'POST',
      path: target === 'rest' ? `/api/v1${path}` : `${baselinePrefix(target)}${path}`,
      body: JSON.stringify(input),
      token: w.token,
    };
  };
  const updateRequest = (target: Target, i: number): HttpRequest => {
    const id = w.featureIds[i % w.featureIds.length];
    const patch = updatePatch(i);
    if (target === 'baseline-rls')
      return { method: 'PATCH', path: `/rls/hr/features/${id}`, body: JSON.stringify(patch), token: w.token };
    if (target === 'postgraphile')
      return gql(
        `mutation($tenantId: UUID!, $id: UUID!, $patch: FeaturePatch!) { result: updateFeatureByTenantIdAndRowId(input: { tenantId: $tenantId, rowId: $id, featurePatch: $patch }) { feature { ${THEIR_COLUMNS} } } }`,
        {
          tenantId: w.tenantId,
          id,
          patch: { ...patch, updated: new Date().toISOString(), updatedBy: w.email },
        },
      );
    return gql(
      `mutation($id: ID!, $input: UpdateFeatureInput!) { result: updateFeature(id: $id, input: $input) { ${OUR_COLUMNS} } }`,
      { id, input: patch },
    );
  };
  const deleteRequest = (target: Target, ids: string[]): HttpRequest => {
    if (target === 'rest' || target === 'baseline-rls')
      return {
        method: 'DELETE',
        path: `${target === 'rest' ? '/api/v1' : baselinePrefix(target)}/hr/features/delete-list?ids=${ids.join(',')}`,
        token: w.token,
      };
    if (target === 'graphql')
      return ids.length === 1
        ? gql('mutation($id: ID!) { result: deleteFeature(id: $id) }', { id: ids[0] })
        : gql('mutation($ids: [ID!]!) { result: deleteFeatures(ids: $ids) }', { ids });
    // PostGraphile 5 has no delete of many rows: one mutation field per row, in one document.
    const fields = ids.map(
      (_, k) =>
        `d${k}: deleteFeatureByTenantIdAndRowId(input: { tenantId: $tenantId, rowId: $id${k} }) { clientMutationId }`,
    );
    const params = ids.map((_, k) => `$id${k}: UUID!`).join(', ');
    return gql(`mutation($tenantId: UUID!, ${params}) { ${fields.join(' ')} }`, {
      tenantId: w.tenantId,
      ...Object.fromEntries(ids.map((id, k) => [`id${k}`, id])),
    });
  };
  const ofService = (target: Target): Target => (target === 'graphql-columns' ? 'graphql' : target);
  const peerTargets: Target[] = ['rest', 'graphql', 'postgraphile'];
  // The baseline's writes: the least the service's contract allows (bench/baseline.ts).
  const floor: Target = 'baseline-rls';
  return [
    {
      key: 'create',
      title: 'create',
      targets: [...peerTargets, 'baseline-rls', 'baseline-plain'],
      request: createRequest,
    },
    {
      key: 'update',
      title: 'update, two fields (GraphQL)',
      targets: ['graphql', 'postgraphile', floor],
      captureTarget: 'graphql',
      request: updateRequest,
    },
    {
      key: 'delete',
      title: 'delete one',
      targets: [...peerTargets, floor],
      deletes: 1,
      request: (target, i) => {
        const ids = pool(target);
        return deleteRequest(target, [ids[i % ids.length]]);
      },
    },
    {
      key: 'bulkdelete',
      title: `bulk delete of ${BULK}`,
      targets: [...peerTargets, floor],
      deletes: BULK,
      request: (target, i) => {
        const ids = pool(target);
        const from = (i * BULK) % Math.max(BULK, ids.length - (ids.length % BULK));
        return deleteRequest(target, ids.slice(from, from + BULK));
      },
    },
    {
      key: 'mixed',
      title: 'mixed: 80% reads, 20% writes',
      targets: ['rest', 'graphql-columns', 'postgraphile'],
      request(target, i) {
        // Of ten requests: eight reads over find and the pages of 20 and 200, a create, an update
        // (the service's through GraphQL: REST has none for features).
        const k = i % 10;
        if (k < 8) return reads[k % reads.length].request(target, i);
        return k === 8 ? createRequest(ofService(target), i) : updateRequest(ofService(target), i);
      },
    },
  ];
}

/** The two fields an update changes. */
export function updatePatch(i: number) {
  return { name: `Updated feature ${i}`, priority: ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'][i % 4] };
}
