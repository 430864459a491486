import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { credentialKey } from '../../src/http/hardening';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

/**
 * The rate limiters (src/http/hardening.ts) count on express-rate-limit's stores but not through
 * its middleware: their answers are held here to the library's, header for header, and a shared
 * store that fails lets requests through.
 */
const LIMIT = 3;
const WINDOW_MS = 60_000;

/** What express-rate-limit itself answers for the same credential and settings, on a bare app. */
async function libraryHeaders(authorization: string, requests: number): Promise<Headers[]> {
  const app = express();
  app.use(
    rateLimit({
      windowMs: WINDOW_MS,
      limit: LIMIT,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      // The service's key for a credential (a hash of it, never the token).
      keyGenerator: credentialKey,
    }),
  );
  app.get('/', (_req, res) => {
    res.end();
  });
  const plain = http.createServer(app);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    const out: Headers[] = [];
    for (let i = 0; i < requests; i++) out.push((await fetch(url, { headers: { authorization } })).headers);
    return out;
  } finally {
    plain.close();
  }
}

/** `t=` counts down with the clock: compared apart from it. */
const withoutReset = (header: string | null) => header?.replace(/; t=\d+/, '; t=_');

describe('rate limits', () => {
  let server: TestServer;
  let a: TestTenant;
  let failing: TestServer;
  let increments = 0;
  beforeAll(async () => {
    server = await startServer({
      http: { rateLimits: { perCredential: LIMIT, perTenant: 0, windowMs: WINDOW_MS } },
    });
    a = await server.tenant('Limited');
    const unreachable: Store = {
      increment: async () => {
        increments += 1;
        throw new Error('connect ECONNREFUSED');
      },
      decrement: async () => undefined,
      resetKey: async () => undefined,
    };
    failing = await startServer({
      http: { rateLimits: { perCredential: 1, perTenant: 1, windowMs: WINDOW_MS, store: () => unreachable } },
    });
  });
  afterAll(async () => {
    await failing?.close();
    await server?.close();
  });

  it("answers with express-rate-limit's draft-8 headers, then 429 with Retry-After", async () => {
    const ours = [];
    for (let i = 0; i <= LIMIT; i++) ours.push(await a.client.get('/concepts/find-all'));
    const theirs = await libraryHeaders(`Bearer ${a.token}`, LIMIT + 1);
    ours.forEach((res, i) => {
      expect(res.status).toBe(i < LIMIT ? 200 : 429);
      expect(withoutReset(res.headers.get('ratelimit'))).toBe(withoutReset(theirs[i].get('ratelimit')));
      expect(res.headers.get('ratelimit-policy')).toBe(theirs[i].get('ratelimit-policy'));
    });
    expect(ours[0].headers.get('ratelimit')).toMatch(
      new RegExp(`^"${LIMIT}-in-1min"; r=${LIMIT - 1}; t=\\d+$`),
    );
    const refused = ours[LIMIT];
    expectErrorBody(refused, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts GraphQL requests against the same credential', async () => {
    const other = await a.userWith(['READ_CONCEPTS']);
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++)
      statuses.push((await other.client.graphql('{ allConcepts { id } }')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts each API key on its own, apart from its creator and the other keys', async () => {
    const creator = await a.userWith(['READ_CONCEPTS', 'CREATE_APIKEYS']);
    const newKey = async () =>
      (await creator.client.post('/api-keys', { name: 'limited', permissions: ['READ_CONCEPTS'] })).body
        .key as string;
    const [first, second] = [await newKey(), await newKey()];
    const statuses = async (client: Client, times: number) => {
      const out = [];
      for (let i = 0; i < times; i++) out.push((await client.get('/concepts/find-all')).status);
      return out;
    };
    expect(await statuses(new Client(server.baseUrl, first), LIMIT + 1)).toEqual([200, 200, 200, 429]);
    expect(await statuses(new Client(server.baseUrl, second), 1)).toEqual([200]);
    // The creator spent two of its own requests on the keys: one left.
    expect(await statuses(creator.client, 2)).toEqual([200, 429]);
  });

  it('lets requests through when a shared store fails, rather than refusing them', async () => {
    const b = await failing.tenant('Store down');
    for (let i = 0; i < 3; i++) {
      const res = await b.client.get('/concepts/find-all');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBeNull();
    }
    // Both limiters asked the store each time.
    expect(increments).toBeGreaterThanOrEqual(6);
  });
});

/** A GET of `path` sent from the local address `from` (127.0.0.0/8 reaches the server from any). */
function getFrom(
  baseUrl: string,
  from: string,
  path: string,
  authorization: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const url = new URL(`${baseUrl}/api/v1${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress: from,
        headers: { authorization },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: text ? JSON.parse(text) : undefined,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('refused credentials', () => {
  const PER_ADDRESS = 5;
  const PER_KEY = 10;
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer({
      http: {
        rateLimits: {
          perCredential: 0,
          perTenant: 0,
          windowMs: WINDOW_MS,
          failuresPerAddress: PER_ADDRESS,
          failuresPerKey: PER_KEY,
        },
      },
    });
    a = await server.tenant('Guessed');
  });
  afterAll(() => server?.close());

  it('answers 429 with Retry-After to an address or a key that failed too often; right credentials still work', async () => {
    const created = await a.client.post('/api-keys', { name: 'guessed', permissions: ['READ_CONCEPTS'] });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const wrong = (n: number) => `Bearer ${key.slice(0, -4)}${String(n).padStart(4, 'x')}`;
    const get = (from: string, authorization: string) =>
      getFrom(server.baseUrl, from, '/concepts/find-all', authorization);

    for (let i = 0; i < PER_ADDRESS; i++) expect((await get('127.0.0.1', wrong(i))).status).toBe(401);
    const refused = await get('127.0.0.1', wrong(99));
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/application\/json/);
    expect(refused.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(refused.body.detail).toMatch(/refused credentials from this address; retry after \d+ seconds/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // The failure window: 15 minutes unless configured.
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // A bad bearer token from that address too, the right key included: the address is throttled.
    expect((await get('127.0.0.1', 'Bearer not.a.token')).status).toBe(429);

    // The right key from another address works; so does a credential already seen to work.
    expect((await get('127.0.0.2', `Bearer ${key}`)).status).toBe(200);
    expect((await get('127.0.0.1', `Bearer ${a.token}`)).status).toBe(200);

    // Guessed from many addresses, the key is throttled on its own.
    let failures = PER_ADDRESS;
    for (let host = 3; failures < PER_KEY; host++)
      for (let i = 0; i < PER_ADDRESS - 1 && failures < PER_KEY; i++, failures++)
        expect((await get(`127.0.0.${host}`, wrong(i))).status).toBe(401);
    const keyRefused = await get('127.0.0.50', wrong(0));
    expect(keyRefused.status).toBe(429);
    expect(keyRefused.body.detail).toMatch(/refused credentials from this API key/);
    // Its holder, whose key this process accepted, is not locked out by the guessing.
    expect((await get('127.0.0.2', `Bearer ${key}`)).status).toBe(200);
  });
});
