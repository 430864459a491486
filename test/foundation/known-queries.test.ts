import jwt from 'jsonwebtoken';
import { countedTenantLimits } from '../support/tenant-counts';
import { holdCallerNotifications, startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, type Response } from '../support/http';

/**
 * A query Apollo Server has already validated and that runs compiled is answered without Apollo's
 * request pipeline (src/graphql/known-queries.ts). Its answers must be Apollo's, byte for byte:
 * each is compared here with Apollo's answer to the same request in the same state, got by
 * sending the document with one more space (a text Apollo has not seen, so it parses, validates
 * and runs it itself). Anything the path does not answer (errors, a refused credential, other
 * media types, persisted queries) must reach Apollo and come back as Apollo words it.
 */
describe('known queries', () => {
  let server: TestServer;
  let a: TestTenant;

  /** The tenant limiter's counts: how many times each tenant's requests were counted. */
  const tenantLimits = countedTenantLimits();

  beforeAll(async () => {
    server = await startServer({ http: { rateLimits: tenantLimits.rateLimits } });
    a = await server.tenant('Known');
  });
  afterAll(() => server.close());

  interface GraphQLBody {
    query: string;
    variables?: Record<string, unknown> | null;
    operationName?: string | null;
    extensions?: Record<string, unknown>;
  }

  const post = (client: Client, body: GraphQLBody, headers: Record<string, string> = {}) =>
    client.request('POST', '/graphql', body, headers);

  /** How many queries the known-query path has answered. */
  async function knownAnswers(): Promise<number> {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('graphql_known_query_answers_total '));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  /** Headers that differ from one request to the next, whoever answers. */
  const OF_THE_MOMENT = ['date', 'x-request-id', 'ratelimit'];

  /** What a client sees of an answer: status, headers (but those of the moment) and text. */
  const seen = (res: Response) => ({
    status: res.status,
    headers: [...res.headers.entries()].filter(([name]) => !OF_THE_MOMENT.includes(name)),
    text: res.text,
  });

  /**
   * Sends `body` until Apollo has compiled it, then once more, and the same with one more space
   * (Apollo's first run of that text). Answers both, and whether the known-query path answered the
   * first.
   */
  async function bothWays(client: Client, body: GraphQLBody, headers: Record<string, string> = {}) {
    for (let i = 0; i < 2; i++) await post(client, body, headers);
    const before = await knownAnswers();
    const known = await post(client, body, headers);
    const byKnownPath = (await knownAnswers()) === before + 1;
    const apollo = await post(client, { ...body, query: `${body.query} ` }, headers);
    return { known, apollo, byKnownPath };
  }

  let epicId: string;
  let featureId: string;
  beforeAll(async () => {
    epicId = (await a.client.post('/hr/epics', { name: 'Known epic' })).body.id;
    for (const [i, status] of ['READY', 'IN_PROGRESS'].entries()) {
      const res = await a.client.post('/hr/features', {
        name: `Known ${i}`,
        status,
        epicId,
        tags: ['k', String(i)],
        estimatedPoints: i + 2,
      });
      expect(res.status).toBe(201);
      featureId ??= res.body.id;
    }
  });

  const find = `query Find($id: ID!) {
    feature(id: $id) { id name status tags estimatedPoints created updated version
      epic { id name } taskCount completedTaskCount progress events { type date authorId } __typename }
  }`;

  it('answers as Apollo does, byte for byte, and only then by itself', async () => {
    const requests: { body: GraphQLBody; headers?: Record<string, string> }[] = [
      { body: { query: find, variables: { id: featureId } } },
      { body: { query: find, variables: { id: featureId }, operationName: 'Find' } },
      // No such record: null, not an error.
      { body: { query: find, variables: { id: '00000000-0000-4000-8000-000000000000' } } },
      {
        body: {
          query: `query Page($input: SearchInput) { searchFeatures(input: $input) {
            content { name status epic { name } taskCount } totalElements totalPages } }`,
          variables: { input: { sort: [{ field: 'name', ascending: false }] } },
        },
      },
      {
        body: {
          query: '{ allFeatures { name } n: allFeatures { id } }',
          variables: null,
          operationName: null,
        },
      },
      {
        body: {
          query: 'query Names { allFeatures { name } } query Count { searchFeatures { totalElements } }',
          operationName: 'Count',
        },
      },
      { body: { query: '{ allEpics { id name } }' }, headers: { accept: 'application/json' } },
      { body: { query: '{ allEpics { name } }' }, headers: { accept: '*/*' } },
    ];
    for (const { body, headers } of requests) {
      const { known, apollo, byKnownPath } = await bothWays(a.client, body, headers);
      expect(known.status).toBe(200);
      expect(known.body.errors).toBeUndefined();
      expect(seen(known)).toEqual(seen(apollo));
      expect(byKnownPath).toBe(true);
    }
    const found = (await post(a.client, { query: find, variables: { id: featureId } })).body.data.feature;
    expect(found).toMatchObject({ name: 'Known 0', epic: { id: epicId, name: 'Known epic' }, taskCount: 0 });
  });

  it('answers a list longer than it writes whole (http/json-bytes.ts) as Apollo does, byte for byte', async () => {
    for (let i = 0; i < 20; i++)
      expect((await a.client.post('/hr/epics', { name: `Listed épic ${i} ✓ "${i}"` })).status).toBe(201);
    const { known, apollo, byKnownPath } = await bothWays(a.client, {
      query: 'query Listed { allEpics { id name } }',
    });
    expect(known.status).toBe(200);
    expect(known.body.data.allEpics.length).toBeGreaterThan(20);
    expect(seen(known)).toEqual(seen(apollo));
    expect(byKnownPath).toBe(true);
  });

  it('leaves errors to Apollo: permissions, variables, credentials', async () => {
    const reader = await a.userWith(['READ_EPICS']);
    const refused = await bothWays(reader.client, { query: find, variables: { id: featureId } });
    expect(refused.byKnownPath).toBe(false);
    expect(refused.known.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(seen(refused.known)).toEqual(seen(refused.apollo));

    const missing = await bothWays(a.client, { query: find, variables: {} });
    expect(missing.byKnownPath).toBe(false);
    expect(missing.known.status).toBe(400);
    expect(seen(missing.known)).toEqual(seen(missing.apollo));

    // A known document with a credential that fails: the 401 Apollo gives.
    await bothWays(a.client, { query: find, variables: { id: featureId } });
    const expired = jwt.sign(
      { sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId, exp: Math.floor(Date.now() / 1000) - 60 },
      server.jwt.secret,
    );
    const before = await knownAnswers();
    const res = await post(a.client.withToken(expired), { query: find, variables: { id: featureId } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
    const none = await post(new Client(server.baseUrl), { query: find, variables: { id: featureId } });
    expect(none.status).toBe(401);
    expect(await knownAnswers()).toBe(before);
  });

  it('leaves other media types and persisted-query extensions to Apollo', async () => {
    const body = { query: '{ allEpics { id } }' };
    await bothWays(a.client, body);
    const before = await knownAnswers();
    const graphqlResponse = await post(a.client, body, { accept: 'application/graphql-response+json' });
    expect(graphqlResponse.status).toBe(200);
    expect(graphqlResponse.headers.get('content-type')).toBe(
      'application/graphql-response+json; charset=utf-8',
    );
    const html = await post(a.client, body, { accept: 'text/html' });
    expect(html.status).toBe(406);
    const persisted = await post(a.client, { ...body, extensions: { persistedQuery: { version: 2 } } });
    expect(persisted.status).toBe(400);
    expect(persisted.body.errors[0].message).toBe('Unsupported persisted query version');
    expect(await knownAnswers()).toBe(before);
  });

  it("counts each request once against the tenant's rate limit, whichever path answers it", async () => {
    const reader = await a.userWith(['READ_EPICS']);
    const hits = () => tenantLimits.hits(a.tenantId);
    const before = hits();
    const answered = await knownAnswers();
    // Eight requests: two of each known, one of each by Apollo (bothWays), a refused one twice.
    await bothWays(a.client, { query: '{ allEpics { name id } }' });
    await bothWays(reader.client, { query: find, variables: { id: featureId } });
    expect(hits()).toBe(before + 8);
    expect(await knownAnswers()).toBe(answered + 1);
  });

  /**
   * A caller that changed while its known query ran (the service's notifications held back, so
   * only the transaction's check can see it): the run goes again with the caller read afresh,
   * as in Apollo's executor.
   */
  describe('on a caller that had changed', () => {
    holdCallerNotifications(() => server);

    const sql = (text: string, params: unknown[] = []) =>
      server.orm.em.getConnection().execute(text, params, 'all');
    const body = { query: '{ allFeatures { id name } }' };

    it('is refused once its permission is gone', async () => {
      const user = await a.userWith(['READ_FEATURES']);
      await bothWays(user.client, body);
      const [{ roles }] = await sql('select roles from app_user where id = ?', [user.userId]);
      await sql(`update tenant_role set permissions = '{}'::jsonb where tenant_id = ? and name = ?`, [
        a.tenantId,
        (roles as string[])[0],
      ]);
      const res = await post(user.client, body);
      expect(res.body.errors?.[0]?.extensions?.status).toBe(403);
      expect(res.body.data ?? null).toBeNull();
    });

    it('answers by itself when the caller is still allowed', async () => {
      const user = await a.userWith(['READ_FEATURES']);
      await bothWays(user.client, body);
      await sql(`update app_user set first_name = first_name where id = ?`, [user.userId]);
      const before = await knownAnswers();
      const res = await post(user.client, body);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.allFeatures).toHaveLength(2);
      expect(await knownAnswers()).toBe(before + 1);
    });
  });

  it('keeps tenants apart: a known document answers with the caller’s own tenant', async () => {
    const b = await server.tenant('Known, other tenant');
    const names = { query: '{ allFeatures { name } }' };
    await bothWays(a.client, names);
    const before = await knownAnswers();
    const theirs = await post(b.client, names);
    expect(theirs.body).toEqual({ data: { allFeatures: [] } });
    expect(await knownAnswers()).toBe(before + 1);
  });
});
