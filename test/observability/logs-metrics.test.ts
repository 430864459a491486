import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/core';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createMetrics } from '../../src/observability/metrics';
import { scrubText } from '../../src/observability/log-safety';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

/** An app on the test database whose log lines are kept in memory. */
async function capturedApp(server: TestServer, level: string) {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  const app: App = await createApp({ orm: server.orm, jwt: server.jwt, logger, production: false });
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    baseUrl,
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, any>),
    client: (token?: string) => new Client(baseUrl, token),
  };
}

/** The value of one Prometheus sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const have = inner.split(',');
    if (wanted.every((w) => have.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('Request logs and Prometheus metrics', () => {
  let server: TestServer;
  let a: TestTenant;
  let svc: Awaited<ReturnType<typeof capturedApp>>;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Observability');
    svc = await capturedApp(server, 'info');
  });
  afterAll(async () => {
    await svc.app.close();
    await server.close();
  });

  it('logs one JSON line per request, found by its request id, with route, status, duration, tenant and user', async () => {
    const requestId = `obs-${randomUUID()}`;
    const res = await svc.client(a.token).get('/concepts/find-all', { 'x-request-id': requestId });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const mine = svc.records().filter((r) => r.requestId === requestId);
    expect(mine).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        msg: 'request',
        requestId,
        method: 'GET',
        path: '/api/v1/concepts/find-all',
        route: '/api/v1/concepts/find-all',
        status: 200,
        durationMs: expect.any(Number),
        tenantId: a.tenantId,
        userId: a.adminId,
      },
    ]);
    expect(mine[0].durationMs).toBeGreaterThan(0);
  });

  it('generates a request id when none or a malformed one is sent, and returns it in the error body', async () => {
    for (const headers of [{}, { 'x-request-id': 'not ok: spaces and / slashes' }] as Record<
      string,
      string
    >[]) {
      const res = await svc.client(a.token).get(`/concepts/find/${randomUUID()}`, headers);
      expectErrorBody(res, 404);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.requestId).toBe(id);
      const line = svc.records().find((r) => r.requestId === id);
      expect(line).toEqual(expect.objectContaining({ route: '/api/v1/concepts/find/{id}', status: 404 }));
    }
  });

  it('keeps credentials and personal data out of the logs', async () => {
    const email = `private.person-${randomUUID().slice(0, 8)}@example.test`;
    const before = svc.lines.length;
    const client = svc.client(a.token);
    const created = await client.post('/concepts', { name: `Owner ${email}`, buildingType: 'ROW' });
    expect(created.status).toBe(201);
    await client.put(`/access-control/users/${encodeURIComponent(email)}/full-access`, {
      hasFullAccess: true,
    });
    await client.put(`/access-control/users/${email}/full-access`, { hasFullAccess: true });
    await client.graphql('query Mine($ids: [ID!]!) { concepts(ids: $ids) { id name } }', { ids: [email] });
    await svc.client('not.a.valid-token').get('/concepts/find-all', { 'x-request-id': 'bad-token-request' });
    const written = svc.lines.slice(before).join('');
    expect(written).toContain('"msg":"request"');
    expect(written).not.toContain(a.token);
    expect(written).not.toContain('not.a.valid-token');
    expect(written).not.toMatch(/bearer/i);
    expect(written).not.toContain(email);
    expect(written).not.toContain(encodeURIComponent(email));
    expect(written).not.toContain('private.person');
    // The e-mail-keyed path is logged with the address hidden, under its route pattern.
    const put = svc
      .records()
      .slice(before)
      .find((r) => r.route === '/api/v1/access-control/users/{email}/full-access');
    expect(put?.path).toBe('/api/v1/access-control/users/[email]/full-access');
  });

  it('scrubs values out of unexpected errors (SQL literals, keys, e-mails, tokens) before logging them', () => {
    const lines: string[] = [];
    const logger = createLogger('error', { write: (l: string) => void lines.push(l) });
    const err = Object.assign(
      new Error(
        `insert into "user" ("email", "name") values ('jane.doe@example.test', 'Jane Doe') - duplicate key value`,
      ),
      {
        detail: 'Key (email)=(jane.doe@example.test) already exists.',
        parameters: ['jane.doe@example.test'],
      },
    );
    logger.error({ err, authorization: 'Bearer abc.def.ghi' }, 'unexpected error');
    const out = lines.join('');
    expect(out).toContain('duplicate key value');
    expect(out).toContain('Key (email)=(?)');
    expect(out).not.toMatch(/jane|Jane Doe|abc\.def\.ghi/);
    expect(scrubText('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).not.toContain('eyJ');
  });

  it('respects the log level: at warn, requests write no lines; LOG_LEVEL sets the level', async () => {
    const quiet = await capturedApp(server, 'warn');
    try {
      expect((await quiet.client(a.token).get('/concepts/find-all')).status).toBe(200);
      expect(quiet.lines).toEqual([]);
    } finally {
      await quiet.app.close();
    }
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({}).logLevel).toBe('info');
  });

  it('logs probes and scrapes at debug only, so they do not drown the request lines', async () => {
    const before = svc.lines.length;
    await svc.client().get('/healthz');
    await fetch(`${svc.baseUrl}/metrics`);
    expect(svc.lines.slice(before)).toEqual([]);
  });

  it('serves Prometheus metrics: a request is found by its route pattern and status, matching its log line', async () => {
    const requestId = `metric-${randomUUID()}`;
    const client = svc.client(a.token);
    const metricsBefore = await (await fetch(`${svc.baseUrl}/metrics`)).text();
    const countBefore =
      sample(metricsBefore, 'http_requests_total', {
        method: 'GET',
        route: '/api/v1/concepts/find/{id}',
        status: '404',
      }) ?? 0;
    await client.get(`/concepts/find/${randomUUID()}`, { 'x-request-id': requestId });
    await client.get('/no-such-operation');
    // Refused before the row's handler runs (not JSON): still counted under the row's pattern.
    const refused = await client.post('/concepts', 'name=x', { 'content-type': 'text/plain' });
    expect(refused.status).toBe(415);
    await client.graphql('query ObsConcepts { allConcepts { id } }');
    await client.graphql('query ObsBroken { concept(id: "x") { nope } }');

    const res = await fetch(`${svc.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    const line = svc.records().find((r) => r.requestId === requestId)!;
    const labels = { method: 'GET', route: line.route, status: String(line.status) };
    expect(labels).toEqual({ method: 'GET', route: '/api/v1/concepts/find/{id}', status: '404' });
    expect(sample(text, 'http_requests_total', labels)).toBe(countBefore + 1);
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(countBefore + 1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      countBefore + 1,
    );

    expect(sample(text, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(
      1,
    );
    const notJson = { method: 'POST', route: '/api/v1/concepts', status: '415' };
    expect(sample(text, 'http_requests_total', notJson)).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_requests_total', { method: 'POST', route: '/graphql', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', {
        operation: 'ObsConcepts',
        type: 'query',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { operation: 'ObsBroken', outcome: 'error' }),
    ).toBe(1);

    // Labels hold patterns only: no record ids, tenants or addresses.
    expect(text).not.toContain(a.tenantId);
    expect(text).not.toMatch(/route="\/api\/v1\/concepts\/find\/[0-9a-f]{8}-/);
  });

  it('reports database pool usage and the coverage job queue depth', async () => {
    const text = await (await fetch(`${svc.baseUrl}/metrics`)).text();
    const pool = (state: string) => sample(text, 'db_pool_connections', { state });
    const [used, free] = [pool('used'), pool('free')];
    expect(sample(text, 'db_pool_connections', { state: 'max' })).toBe(4);
    // Nothing else runs while the scrape is answered: no request waits for a connection.
    expect(pool('pending')).toBe(0);
    expect([used, free].every(Number.isInteger)).toBe(true);
    expect(used! + free!).toBeLessThanOrEqual(4);
    // Other files' jobs share the database, so only the count's kind is known here; the next
    // test checks the count itself.
    expect(Number.isInteger(sample(text, 'job_queue_depth', { queue: 'coverage_job' }))).toBe(true);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('counts PENDING coverage jobs, and reports 0 where the coverage_job table does not exist', async () => {
    const fakeOrm = (table: string | null, pending: number) =>
      ({
        em: {
          getConnection: () => ({
            execute: async (sql: string) =>
              sql.includes('to_regclass') ? [{ name: table }] : [{ n: pending }],
          }),
        },
      }) as unknown as MikroORM;
    const silent = createLogger('silent');
    const depthOf = async (orm: MikroORM) => {
      const text = await createMetrics(orm, silent).registry.getSingleMetricAsString('job_queue_depth');
      return sample(text, 'job_queue_depth', { queue: 'coverage_job' });
    };
    expect(await depthOf(fakeOrm(null, 7))).toBe(0);
    expect(await depthOf(fakeOrm('coverage_job', 3))).toBe(3);
  });
});
