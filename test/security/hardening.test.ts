import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import helmet from 'helmet';
import { credentialKey, HELMET_OPTIONS, isMutation } from '../../src/http/hardening';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

describe('HTTP hardening', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer({
      http: {
        corsOrigins: ['https://app.example.test'],
        rateLimits: { perCredential: 8, perTenant: 12, windowMs: 60_000 },
      },
    });
    a = await server.tenant('Hardening');
  });
  afterAll(() => server.close());

  it('sends security headers and a restrictive CSP on API answers', async () => {
    const res = await a.client.get('/concepts/find-all');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it("sets exactly helmet's own headers, as helmet's middleware sets them", async () => {
    // Helmet itself, run per request on a bare Express app (which would send X-Powered-By).
    const bare = express();
    bare.use(helmet(HELMET_OPTIONS));
    bare.get('/', (_req, res) => {
      res.end();
    });
    const plain = http.createServer(bare);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const byHelmet = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
      const generic = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
      const expected = [...byHelmet.headers].filter(([name]) => !generic.has(name));
      expect(expected.length).toBeGreaterThan(8);
      expect(byHelmet.headers.get('x-powered-by')).toBeNull();
      for (const path of ['/healthz', '/api/v1/concepts/find-all', '/graphql', '/api/v1/openapi.json']) {
        // Without a credential: the rate limit test below counts this user's requests.
        const res = await fetch(`${server.baseUrl}${path}`);
        expect([path, expected.map(([name]) => [name, res.headers.get(name)])]).toEqual([path, expected]);
        expect(res.headers.get('x-powered-by')).toBeNull();
      }
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('allows only the configured CORS origins', async () => {
    const ok = await fetch(`${server.baseUrl}/api/v1/concepts/find-all`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
    const other = await fetch(`${server.baseUrl}/api/v1/concepts/find-all`, {
      headers: { origin: 'https://evil.example.test' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('limits each credential, then each tenant, with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<Client['get']>> | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await a.client.get('/concepts/find-all');
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(7);
    expect(limited).toBeDefined();
    expectErrorBody(limited!, 429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user of the same tenant has its own credential budget but shares the tenant's.
    const other = await a.userWith(['READ_CONCEPTS']);
    const otherStatuses: number[] = [];
    for (let i = 0; i < 8; i++) otherStatuses.push((await other.client.get('/concepts/find-all')).status);
    expect(otherStatuses).toContain(429);
    // A different tenant is not affected.
    const b = await server.tenant('Unaffected');
    expect((await b.client.get('/concepts/find-all')).status).toBe(200);
  });
});

describe('what the hardening reads of a request', () => {
  const document = 'query Read { concepts { id } } mutation Write { createConcept(input: {}) { id } }';

  it('tells a mutation by the operation asked for, the same each time the document comes again', () => {
    for (let round = 0; round < 3; round++) {
      expect(isMutation({ query: document, operationName: 'Write' })).toBe(true);
      expect(isMutation({ query: document, operationName: 'Read' })).toBe(false);
      // No operation of that name, or none named in a document of two: nothing runs, nothing is written.
      expect(isMutation({ query: document, operationName: 'Other' })).toBe(false);
      expect(isMutation({ query: document, operationName: '' })).toBe(false);
      expect(isMutation({ query: document })).toBe(false);
      expect(isMutation({ query: 'mutation { signOutEverywhere }' })).toBe(true);
      expect(isMutation({ query: 'mutation { signOutEverywhere }', operationName: '' })).toBe(false);
      expect(isMutation({ query: '{ mutationLog { id } }' })).toBe(false);
      expect(isMutation({ query: 'mutation {' })).toBe(false);
      expect(isMutation({ query: 42 })).toBe(false);
    }
  });

  it('keys a credential by a digest of it, the same for every request that sends it', () => {
    const request = (authorization?: string) =>
      ({ headers: authorization ? { authorization } : {}, ip: '127.0.0.1' }) as Request;
    const first = credentialKey(request('Bearer one'));
    expect(first).toMatch(/^cred:[\w-]{32}$/);
    expect(first).not.toContain('one');
    expect(credentialKey(request('Bearer one'))).toBe(first);
    expect(credentialKey(request('Bearer two'))).not.toBe(first);
    expect(credentialKey(request())).toBe(credentialKey(request()));
    expect(credentialKey(request())).toMatch(/^anon:/);
    // A header too long to be kept is keyed all the same.
    const long = `Bearer ${'x'.repeat(5 * 1024 * 1024)}`;
    expect(credentialKey(request(long))).toBe(credentialKey(request(long)));
    expect(credentialKey(request(long))).not.toBe(credentialKey(request(`${long}y`)));
  });
});

describe('GraphQL limits', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Armor');
  });
  afterAll(() => server.close());

  it('rejects too many aliases, too deep queries and batches, without a 500', async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: allConcepts { id }`).join(' ');
    const many = await a.client.graphql(`{ ${aliases} }`);
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body.errors)).toMatch(/alias/i);
    const chain = (n: number): string => (n === 0 ? 'name' : `ofType { ${chain(n - 1)} }`);
    const deep = await a.client.graphql(`{ __schema { types { fields { type { ${chain(12)} } } } } }`);
    expect(deep.status).toBe(400);
    expect(JSON.stringify(deep.body.errors)).toMatch(/depth/i);
    const huge = await a.client.graphql(`{ me { ${'id '.repeat(20_000)} } }`);
    expect(huge.status).toBe(400);
    const broken = await a.client.graphql('{ me { id ');
    expect(broken.status).toBe(400);
    const batch = await new Client(server.baseUrl, a.token).request('POST', '/graphql', [
      { query: '{ me { id } }' },
      { query: '{ me { id } }' },
    ]);
    expect(batch.status).toBe(400);
    const invalid = await a.client.graphql('{ nope }');
    expect(invalid.status).toBe(400);
  });

  it('counts `__typename` aliases against the alias limit', async () => {
    const typenames = Array.from({ length: 1000 }, (_, i) => `t${i}: __typename`).join(' ');
    const many = await a.client.graphql(`{ ${typenames} }`);
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body.errors)).toMatch(/alias/i);
    const few = await a.client.graphql(`{ ${typenames.split(' ').slice(0, 40).join(' ')} }`);
    expect(few.status).toBe(200);
    expect(Object.keys(few.body.data)).toHaveLength(20);
  });
});
