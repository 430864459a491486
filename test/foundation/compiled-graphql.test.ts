import type { GraphQLObjectType } from 'graphql';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client } from '../support/http';
import { ISO } from '../hr/helpers';

/**
 * GraphQL at /graphql runs a document on graphql-js the first time and as a graphql-jit
 * function from then on (src/graphql/compiled-execution.ts). The compiled runs must answer
 * exactly as graphql-js did, and everything around execution (validation limits, permissions,
 * variable errors, the request transaction, headers) must still apply.
 */
describe('GraphQL executed as compiled queries', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Compiled');
  });
  afterAll(() => server.close());

  const post = (client: Client, body: { query: string; operationName?: string; variables?: object }) =>
    client.request('POST', '/graphql', body);

  async function compiles(): Promise<{ compiled: number; fallback: number }> {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const count = (outcome: string) => {
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`graphql_documents_compiled_total{outcome="${outcome}"}`));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    return { compiled: count('compiled'), fallback: count('fallback') };
  }

  it('a document that comes again runs compiled, once per document, answering as graphql-js did', async () => {
    const epic = (await a.client.post('/hr/epics', { name: 'Compiled epic' })).body;
    for (const [i, status] of ['READY', 'IN_PROGRESS', 'READY'].entries()) {
      const res = await a.client.post('/hr/features', {
        name: `Compiled ${i}`,
        status,
        epicId: i === 0 ? epic.id : undefined,
        tags: ['c', String(i)],
        estimatedPoints: i + 1,
      });
      expect(res.status).toBe(201);
    }
    const query = `query Page($input: SearchInput) {
      searchFeatures(input: $input) {
        content { id name status tags estimatedPoints created updated epic { name } taskCount progress
          events { type date authorId } ... on Feature { __typename } }
        totalElements
      }
    }`;
    const variables = { input: { sort: [{ field: 'name', ascending: true }] } };
    const before = await compiles();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(a.client, { query, variables });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      answers.push(res.text);
    }
    // The first run was graphql-js's, the second compiled it, the third reused it.
    expect(await compiles()).toEqual({ compiled: before.compiled + 1, fallback: before.fallback });
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
    const page = JSON.parse(answers[2]).data.searchFeatures;
    expect(page.totalElements).toBe(3);
    expect(
      page.content.map((f: any) => [f.name, f.status, f.tags, f.estimatedPoints, f.epic?.name ?? null]),
    ).toEqual([
      ['Compiled 0', 'READY', ['c', '0'], 1, 'Compiled epic'],
      ['Compiled 1', 'IN_PROGRESS', ['c', '1'], 2, null],
      ['Compiled 2', 'READY', ['c', '2'], 3, null],
    ]);
    for (const f of page.content) {
      expect(f.created).toMatch(ISO);
      expect(f.events[0]).toEqual({ type: 'CREATE', date: expect.stringMatching(ISO), authorId: a.adminId });
      expect(f.__typename).toBe('Feature');
    }
  });

  it('fields that only read their property have no resolver of their own; field resolvers keep theirs', () => {
    const fields = (server.app.schema.getType('Feature') as GraphQLObjectType).getFields();
    for (const plain of ['name', 'created', 'tags']) expect(fields[plain].resolve).toBeUndefined();
    // `events` is read from the history table (docs/history.md), with the record or by its resolver.
    for (const resolved of ['epic', 'taskCount', 'progress', 'events', 'history'])
      expect(fields[resolved].resolve).toBeDefined();
    expect(
      (server.app.schema.getType('Event') as GraphQLObjectType).getFields().date.resolve,
    ).toBeUndefined();
  });

  it('each operation of a document is compiled on its own; introspection stays on graphql-js', async () => {
    const document = `query Names { allFeatures { name } } query Count { searchFeatures { totalElements } }`;
    const before = await compiles();
    for (let i = 0; i < 2; i++) {
      const names = await post(a.client, { query: document, operationName: 'Names' });
      expect(names.body.data.allFeatures.length).toBeGreaterThan(0);
      const count = await post(a.client, { query: document, operationName: 'Count' });
      expect(count.body.data.searchFeatures.totalElements).toBe(names.body.data.allFeatures.length);
    }
    expect(await compiles()).toEqual({ compiled: before.compiled + 2, fallback: before.fallback });

    const introspection = '{ __schema { queryType { name } } __type(name: "Feature") { name } }';
    for (let i = 0; i < 2; i++) {
      const res = await post(a.client, { query: introspection });
      expect(res.body.data).toEqual({
        __schema: { queryType: { name: 'Query' } },
        __type: { name: 'Feature' },
      });
    }
    expect(await compiles()).toEqual({ compiled: before.compiled + 2, fallback: before.fallback + 1 });
  });

  it('compiled runs keep variable errors, permissions, limits and the request transaction', async () => {
    const find = 'query Find($id: ID!) { feature(id: $id) { id name version } }';
    const { id } = (await a.client.post('/hr/features', { name: 'Guarded' })).body;
    const feature = (await post(a.client, { query: find, variables: { id } })).body.data.feature;
    const reader = await a.userWith(['READ_EPICS']);
    for (let i = 0; i < 3; i++) {
      // A variable that is missing: a 400 naming it, as graphql-js's coercion said it.
      const missing = await post(a.client, { query: find, variables: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([
        {
          message: 'id: is required',
          locations: [{ line: 1, column: 12 }],
          extensions: {
            code: 'BAD_USER_INPUT',
            status: 400,
            errors: [{ field: 'id', reason: 'is required' }],
          },
        },
      ]);
      expect(missing.body.data).toBeUndefined();

      // graphql-shield's rule on the root field: no READ_FEATURES, no feature.
      const refused = await post(reader.client, { query: find, variables: { id: feature.id } });
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(refused.body.data?.feature ?? null).toBeNull();

      const found = await post(a.client, { query: find, variables: { id: feature.id } });
      expect(found.body.data.feature).toEqual({ id: feature.id, name: 'Guarded', version: feature.version });
    }

    // A mutation that fails is rolled back whole, its data withheld, however often it runs.
    const update = `mutation Rename($id: ID!, $v: Int!) {
      renamed: updateFeature(id: $id, input: { name: "Renamed" }) { id }
      stale: updateFeature(id: $id, input: { name: "Stale" }, expectedVersion: $v) { id }
    }`;
    for (let i = 0; i < 3; i++) {
      const res = await post(a.client, { query: update, variables: { id: feature.id, v: feature.version } });
      expect(res.body.data).toBeNull();
      expect(res.body.errors[0].extensions.status).toBe(409);
    }
    expect((await a.client.get(`/hr/features/find/${feature.id}`)).body.name).toBe('Guarded');

    // graphql-armor's depth limit is a validation rule: still applied before any execution.
    const chain = (n: number): string => (n === 0 ? 'name' : `ofType { ${chain(n - 1)} }`);
    const deep = `query Deep { __schema { types { fields { type { ${chain(12)} } } } } }`;
    for (let i = 0; i < 2; i++) {
      const res = await post(a.client, { query: deep });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/depth/i);
    }
  });
});
