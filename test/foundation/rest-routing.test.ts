import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { bySpecificity, compileRoutes, type CompiledRoute } from '../../src/rest/compile';
import { routeLookup, type RouteLookup } from '../../src/rest/lookup';
import { restTable } from '../../src/rest/table';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';

/**
 * The REST facade finds a request's row in one lookup. Rows must be found exactly as Express's
 * router found them when each row was an Express route of its own: the same row, the same
 * parameters, for every row of the table and the paths clients get slightly wrong.
 */

/** Path variants of one row: parameters filled in, case changed, slashes added, odd encodings. */
function variants(path: string): string[] {
  const fill = (value: string) => path.replace(/\{\w+\}/g, value);
  const plain = fill('Abc-1');
  const out = [
    plain,
    `${plain}/`,
    `${plain}//`,
    plain.toUpperCase(),
    fill('a%2Fb'),
    fill('someone%40example.test'),
    fill('%C3%A9t%C3%A9'),
    fill('x'.repeat(300)),
    `/${plain}`,
  ];
  if (path.includes('{')) out.push(fill(''), fill('%20'));
  return out;
}

/** Which row Express's own router picks for a request, as JSON {path, params}, or 404. */
async function expressRouter(routes: readonly CompiledRoute[]) {
  const router = express.Router();
  for (const compiled of [...routes].sort((a, b) => bySpecificity(a.route, b.route))) {
    const method = compiled.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](compiled.route.path.replace(/\{(\w+)\}/g, ':$1'), (req, res) => {
      res.json({ path: compiled.route.path, params: req.params });
    });
  }
  const app = express();
  app.use(router);
  app.use((_req, res) => res.status(404).json(null));
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
    res.status(500).json('error'),
  );
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async pick(method: string, path: string): Promise<unknown> {
      const res = await fetch(base + path, { method: method === 'HEAD' ? 'GET' : method });
      return res.json();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function picked(lookup: RouteLookup, method: string, path: string): unknown {
  try {
    const found = lookup.find(method, path);
    return found ? { path: found.compiled.route.path, params: { ...found.params } } : null;
  } catch {
    return 'error';
  }
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('the REST route lookup', () => {
  let server: TestServer;
  let a: TestTenant;
  let routes: CompiledRoute[];
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Routing');
    routes = compileRoutes(server.app.schema, restTable);
  });
  afterAll(() => server.close());

  // Rows are validated against the schema and compiled by graphql-jit on their first request;
  // none may fail either then.
  it('validates every row against the schema and compiles it with graphql-jit', () => {
    expect(routes).toHaveLength(restTable.length);
    for (const compiled of routes) expect(() => compiled.compile()).not.toThrow();
  });

  // Every row and variant also goes through a real Express router: seconds of CPU on a busy machine.
  it('finds the row, and the parameters, that Express finds for every row and its variants', async () => {
    const lookup = routeLookup(routes);
    const reference = await expressRouter(routes);
    try {
      const differences: string[] = [];
      const cases = routes.flatMap(({ route }) =>
        variants(route.path).flatMap((path) =>
          [...new Set([route.method, 'GET', 'DELETE', 'HEAD'])].map((method) => ({ method, path })),
        ),
      );
      // Some requests at a time: each is a round trip through a socket, mostly waiting.
      let next = 0;
      let compared = 0;
      const compare = async () => {
        while (next < cases.length) {
          const { method, path } = cases[next++];
          const theirs = await reference.pick(method, path);
          const ours = picked(lookup, method, path);
          compared++;
          if (JSON.stringify(ours) !== JSON.stringify(theirs))
            differences.push(
              `${method} ${path}: Express ${JSON.stringify(theirs)}, lookup ${JSON.stringify(ours)}`,
            );
        }
      };
      await Promise.all(Array.from({ length: 8 }, compare));
      differences.sort();
      expect(differences).toEqual([]);
      expect(compared).toBeGreaterThan(routes.length * 9);
    } finally {
      await reference.close();
    }
  }, 300_000);

  it('answers OPTIONS with the methods served at the path, as Express did', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/concepts/find-all`, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    // `/concepts/{id}` serves PATCH and DELETE, and its pattern matches `find-all` too.
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
    expect(await res.text()).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('serves HEAD, a trailing slash and another case from the same row', async () => {
    const created = await a.client.post('/concepts', { name: 'Routing concept', buildingType: 'ROW' });
    const id = created.body.id as string;
    const auth = { authorization: `Bearer ${a.token}` };
    for (const path of [`/api/v1/concepts/find/${id}/`, `/api/v1/Concepts/FIND/${id}`]) {
      const res = await fetch(server.baseUrl + path, { headers: auth });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(id);
    }
    const head = await fetch(`${server.baseUrl}/api/v1/concepts/find/${id}`, {
      method: 'HEAD',
      headers: auth,
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const upper = await fetch(`${server.baseUrl}/api/v1/concepts/find/${id.toUpperCase()}`, {
      headers: auth,
    });
    expect(upper.status).toBe(404);
  });

  it('refuses a path parameter that is not valid percent-encoding with a 400 naming it', async () => {
    // Not through the test client: the OpenAPI check cannot decode such a path either.
    const res = await fetch(`${server.baseUrl}/api/v1/concepts/find/%E0%A4%A`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const body = { status: res.status, headers: res.headers, body: (await res.json()) as any, text: '' };
    expectErrorBody(body, 400);
    expect(body.body.errors).toEqual([{ field: 'id', reason: 'is not valid percent-encoding' }]);
  });

  it('reads repeated query keys as lists and refuses odd query strings with a 400, never a 500', async () => {
    const get = async (query: string) => {
      const res = await fetch(`${server.baseUrl}/api/v1/concepts/find?${query}`, {
        headers: { authorization: `Bearer ${a.token}` },
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any, text: '' };
    };
    // More repeats than qs would have kept as a list (it made an object of them past 20).
    const many = Array.from({ length: 30 }, () => `ids=${UNKNOWN}`).join('&');
    const listed = await get(many);
    expect([listed.status, listed.body]).toEqual([200, []]);
    // Bracket syntax is not read: the key is a parameter this operation does not have.
    const bracket = await get(`ids[]=${UNKNOWN}`);
    expectErrorBody(bracket, 400);
    expect(bracket.body.errors).toContainEqual({
      field: 'ids[]',
      reason: 'is not a parameter of this operation',
    });
    const unnamed = await get(`ids=${UNKNOWN}&=x`);
    expectErrorBody(unnamed, 400);
    for (const odd of ['ids=%E0%A4%A', 'ids=%', 'ids=%ZZ', '__proto__=x', 'ids=a&ids[b]=c', 'ids=%00']) {
      const res = await get(odd);
      expect([odd, res.status]).toEqual([odd, res.status === 200 ? 200 : 400]);
      if (res.status !== 200) expectErrorBody(res, 400);
    }
  });

  it('leaves paths no row serves to the 404', async () => {
    expectErrorBody(await a.client.get('/concepts/fi%6Ed/x'), 404);
    expectErrorBody(await a.client.request('PUT', '/concepts/find-all'), 404);
    const res = await fetch(`${server.baseUrl}/api/v1//concepts/find-all`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(res.status).toBe(404);
  });
});
