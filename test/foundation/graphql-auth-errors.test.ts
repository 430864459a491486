import jwt from 'jsonwebtoken';
import { Client, type Response } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * /graphql answers a missing and a bad credential by one rule: HTTP 401 with
 * `WWW-Authenticate: Bearer` and one error coded UNAUTHENTICATED with status 401, no data.
 */
describe('GraphQL authentication errors', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('GqlAuth');
  });
  afterAll(() => server.close());

  const post = (body: unknown, authorization?: string) =>
    new Client(server.baseUrl).request('POST', '/graphql', body, authorization ? { authorization } : {});

  function expectUnauthenticated(res: Response): void {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('content-type')).toMatch(/application\/(graphql-response\+)?json/);
    expect(Object.keys(res.body).filter((k) => k !== 'data')).toEqual(['errors']);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors;
    expect(Object.keys(error).sort()).toEqual(['extensions', 'message']);
    expect(error.extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
    expect(error.message).not.toMatch(/Context creation failed/);
  }

  it('no credential and bad credentials answer alike, for queries and mutations', async () => {
    const query = { query: '{ allConcepts { id } }' };
    const mutation = { query: 'mutation { createConcept(input: {name: "x"}) { id } }' };
    const expired = jwt.sign(
      { sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId, exp: Math.floor(Date.now() / 1000) - 60 },
      server.jwt.secret,
    );
    const wrongKey = jwt.sign({ sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId }, 'x'.repeat(32), {
      expiresIn: '1h',
    });
    for (const body of [query, mutation]) {
      for (const authorization of [
        undefined,
        'Bearer nope',
        'Basic dXNlcjpwYXNz',
        `Bearer ${expired}`,
        `Bearer ${wrongKey}`,
      ]) {
        const res = await post(body, authorization);
        expectUnauthenticated(res);
      }
    }
    // Nothing was created by the refused mutations.
    expect((await a.client.get('/concepts/find-all')).body).toEqual([]);
  });

  it('fragments on the root and a mix with introspection are refused without a credential too', async () => {
    expectUnauthenticated(await post({ query: '{ ... on Query { allConcepts { id } } }' }));
    expectUnauthenticated(await post({ query: '{ ...F } fragment F on Query { allConcepts { id } }' }));
    expectUnauthenticated(await post({ query: '{ __typename allConcepts { id } }' }));
  });

  it('introspection needs no credential; a bad credential is refused even there', async () => {
    const ok = await post({ query: '{ __schema { queryType { name } } __typename }' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.__schema.queryType.name).toBe('Query');
    expectUnauthenticated(await post({ query: '{ __typename }' }, 'Bearer nope'));
  });

  it('a valid credential still works, and a missing permission stays a 403 coded FORBIDDEN', async () => {
    expect((await a.client.graphql('{ allConcepts { id } }')).body.data).toEqual({ allConcepts: [] });
    const none = await a.userWith([]);
    const res = await none.client.graphql('{ allConcepts { id } }');
    expect(res.body.errors?.[0].extensions).toEqual({ code: 'FORBIDDEN', status: 403 });
  });

  it('hidden suggestions leave a clean message (fields, arguments and enum values)', async () => {
    const field = await a.client.graphql('{ allConcept { id } }');
    expect(field.status).toBe(400);
    expect(field.body.errors?.[0].message).toBe('Cannot query field "allConcept" on type "Query".');
    const argument = await a.client.graphql('{ conceptPage(pageSiz: 5) { totalElements } }');
    expect(argument.body.errors?.[0].message).toBe(
      'Unknown argument "pageSiz" on field "Query.conceptPage".',
    );
    const value = await a.client.graphql(
      'mutation { createFeature(input: {name: "x", status: READI}) { id } }',
    );
    expect(value.status).toBe(400);
    for (const res of [field, argument, value]) {
      for (const e of res.body.errors ?? []) {
        expect(e.message).not.toMatch(/Did you mean|Suggestion hidden|\?/);
      }
    }
    expect(value.body.errors!.map((e) => e.message).join(' ')).toMatch(/READI/);
  });
});
