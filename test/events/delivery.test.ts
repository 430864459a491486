import { Client } from 'pg';
import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { renewLeases, type Claim } from '../../src/events/delivery-repository';
import { asEventWorker } from '../../src/events/store';
import { workerDatabaseUrl } from '../support/database';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { startReceiver, waitFor, type Answer, type Received } from './receiver';

// The receivers are local HTTP servers on 127.0.0.1, which only this setting lets through.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const base: EventSettings = {
  ...eventSettings({}),
  allowPrivateTargets: true,
  timeoutMs: 1500,
  retryBaseMs: 100,
  retryMaxMs: 300,
  leaseMs: 2000,
  pollIntervalMs: 50,
};

/**
 * Delivery as it scales: concurrency within an endpoint's window and the order that follows from
 * it, one endpoint's trouble kept from the others, the circuit breaker, and an endpoint deleted
 * while its deliveries are in flight. Each test creates its events first, then starts a worker
 * with the settings it is about, so the whole batch is waiting when delivery begins.
 */
describe('event delivery', () => {
  let server: TestServer;
  let a: TestTenant;
  let worker: EventWorker | undefined;
  const answers = new Map<string, (req: Received, nth: number) => Answer>();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Delivery');
    receiver = await startReceiver((req, nth) => answers.get(req.path)?.(req, nth) ?? 200);
  }, 120_000);
  /** The endpoints a test registered: deleted after it, so no later test's events go to them. */
  let registered: string[] = [];
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    for (const id of registered)
      expect([204, 404]).toContain((await a.client.delete(`/webhooks/${id}`)).status);
    registered = [];
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  const register = async (pathName: string, answer?: (req: Received, nth: number) => Answer) => {
    if (answer) answers.set(pathName, answer);
    const res = await a.client.post('/webhooks', {
      url: receiver.url + pathName,
      events: ['feature.created'],
    });
    expect(res.status).toBe(201);
    registered.push(res.body.id as string);
    return res.body as { id: string };
  };
  /** Creates `n` features one after the other (so their events occur in this order); their ids. */
  const createFeatures = async (n: number, label: string) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await a.client.post('/hr/features', { name: `${label} ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    return ids;
  };
  const resourceOf = (r: Received) => (JSON.parse(r.body) as { resource: { id: string } }).resource.id;
  const start = (settings: Partial<EventSettings>) =>
    (worker = startEventWorker(
      server.orm,
      createLogger('silent'),
      { ...base, ...settings },
      server.app.metrics.observeAttempt,
      Boolean(process.env.DATABASE_URL),
    ));
  const deliveries = async (hookId: string) =>
    (await a.client.get(`/webhooks/${hookId}/deliveries`)).body.content as {
      status: string;
      attempts: number;
      attemptLog: { statusCode: number | null; error: string | null }[];
    }[];

  it('sends an endpoint its events in order, at most its window at once: none before every event a window older', async () => {
    const window = 3;
    await register('/windowed', () => ({ status: 200, afterMs: 60 }));
    const ids = await createFeatures(12, 'Windowed');
    start({ endpointConcurrency: window, concurrency: 16 });
    const got = await waitFor(
      () => receiver.at('/windowed').length === ids.length && receiver.at('/windowed'),
    );
    const ranks = got.map((r) => ids.indexOf(resourceOf(r)));
    expect([...ranks].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i));
    // Event r went out only once every event up to r - window had been delivered.
    ranks.forEach((rank, place) => {
      const before = new Set(ranks.slice(0, place));
      for (let older = 0; older <= rank - window; older++) expect(before.has(older)).toBe(true);
    });
    // In parallel, never more than the window.
    expect(receiver.busiest('/windowed')).toBe(window);
  });

  it('with a window of one, sends strictly in order: a failing event holds the ones after it until it is retried', async () => {
    const hook = await register('/strict', (req, nth) => (nth === 3 ? 500 : 200));
    const ids = await createFeatures(6, 'Strict');
    start({ endpointConcurrency: 1, concurrency: 16 });
    const got = await waitFor(
      () => receiver.at('/strict').length === ids.length + 1 && receiver.at('/strict'),
    );
    const order = got.map((r) => ids.indexOf(resourceOf(r)));
    // The third was refused once and sent again before the fourth.
    expect(order).toEqual([0, 1, 2, 2, 3, 4, 5]);
    expect(receiver.busiest('/strict')).toBe(1);
    const log = await waitFor(async () => {
      const all = await deliveries(hook.id);
      return all.every((d) => d.status === 'DELIVERED') && all;
    });
    expect(log.map((d) => d.attempts).sort()).toEqual([1, 1, 1, 1, 1, 2]);
  });

  it('retries an endpoint that fails, hangs, resets, redirects or answers late, and none of them delays another', async () => {
    const troubles: Record<string, Answer> = {
      '/t500': 500,
      '/thang': 'hang',
      '/treset': 'reset',
      '/tredirect': { redirect: `${receiver.url}/fast` },
      '/tlate': { status: 200, afterMs: 2500 },
    };
    const hooks = new Map<string, string>();
    // Each event's first request is in trouble. A reset of a kept-alive connection is sent again
    // at once on a new one (http-post.ts), so there the first two are.
    const tries = new Map<string, number>();
    for (const [p, trouble] of Object.entries(troubles))
      hooks.set(
        p,
        (
          await register(p, (req) => {
            const key = `${p} ${req.headers['webhook-id']}`;
            tries.set(key, (tries.get(key) ?? 0) + 1);
            return tries.get(key)! <= (trouble === 'reset' ? 2 : 1) ? trouble : 200;
          })
        ).id,
      );
    await register('/fast');
    const ids = await createFeatures(2, 'Troubled');
    const began = Date.now();
    start({ endpointConcurrency: 2, concurrency: 32 });
    // The healthy endpoint has both events long before the troubled ones' first timeout.
    await waitFor(() => ids.every((id) => receiver.at('/fast').some((r) => r.body.includes(id))), 10_000);
    expect(receiver.at('/fast').filter((r) => ids.some((id) => r.body.includes(id)))).toHaveLength(2);
    expect(
      Math.max(
        ...receiver
          .at('/fast')
          .filter((r) => ids.some((id) => r.body.includes(id)))
          .map((r) => r.at),
      ) - began,
    ).toBeLessThan(1500);
    // Each troubled endpoint: both events failed once (its first two requests), then delivered.
    for (const [p, hookId] of hooks) {
      const log = await waitFor(
        async () => {
          const all = await deliveries(hookId);
          return all.length === 2 && all.every((d) => d.status === 'DELIVERED') && all;
        },
        20_000,
        `${p} to be delivered`,
      );
      for (const d of log) {
        // Failed once (a reset maybe twice, if the retry on a new connection also met it), then 200.
        expect(p === '/treset' ? [2, 3] : [2]).toContain(d.attempts);
        expect(d.attemptLog[d.attempts - 1].statusCode).toBe(200);
        expect(d.attemptLog[0].statusCode === 200).toBe(false);
      }
    }
    const firstErrors = async (p: string) =>
      (await deliveries(hooks.get(p)!)).map((d) => `${d.attemptLog[0].statusCode} ${d.attemptLog[0].error}`);
    expect(await firstErrors('/t500')).toEqual(['500 try again', '500 try again']);
    expect(await firstErrors('/tredirect')).toEqual(['307 HTTP 307', '307 HTTP 307']);
    for (const p of ['/thang', '/tlate'])
      for (const e of await firstErrors(p)) expect(e).toBe('null timed out after 1500 ms');
    for (const e of await firstErrors('/treset')) expect(e).toMatch(/^null (socket hang up|read ECONNRESET)/);
    // The redirect was not followed.
    expect(receiver.at('/fast').filter((r) => ids.some((id) => r.body.includes(id)))).toHaveLength(2);
  }, 60_000);

  it("keeps a slow endpoint to its share of the process's slots, so the others keep their windows", async () => {
    // Eight slots for two busy endpoints: four each, though either's window is eight.
    await register('/sharedslow', () => ({ status: 200, afterMs: 700 }));
    await register('/sharedfast', () => ({ status: 200, afterMs: 20 }));
    const ids = await createFeatures(40, 'Shared');
    start({ endpointConcurrency: 8, concurrency: 8 });
    // While eight of the fast one's have not arrived, at most its share (four) is in flight and
    // the rest wait: the slow one has held no more than its share, and it was not starved either.
    // (How many of its four it had filled by then depends on the machine's load. Once the fast
    // one has none waiting, the slow one may take every slot, as the rule says.)
    await waitFor(() => receiver.at('/sharedfast').length >= ids.length - 8, 20_000);
    const slowWhileShared = receiver.busiest('/sharedslow');
    expect(slowWhileShared).toBeGreaterThan(0);
    expect(slowWhileShared).toBeLessThanOrEqual(4);
    await waitFor(() => receiver.at('/sharedfast').length === ids.length, 20_000);
    expect(receiver.at('/sharedslow').length).toBeLessThan(ids.length);
    // Alone, it gets its whole window.
    await waitFor(() => receiver.at('/sharedslow').length === ids.length, 20_000);
    expect(receiver.busiest('/sharedslow')).toBe(8);
  }, 60_000);

  it('sends an event older than those already delivered (committed late, or sent again), also when its insert is under way as claims look', async () => {
    const hook = await register('/late', () => ({ status: 200, afterMs: 80 }));
    const ids = await createFeatures(6, 'Late');
    // One at a time, so the endpoint's undelivered deliveries begin later with every record.
    start({ endpointConcurrency: 1 });
    await waitFor(() => receiver.at('/late').length >= 1);
    // The first event's delivery once more, an hour before every other: the claims have moved
    // the endpoint's start past it.
    const insert = `insert into event_delivery (tenant_id, id, version, channel, endpoint_id, event_id, event_type,
        occurred_at, status, attempts, next_attempt_at, attempt_log)
      select tenant_id, gen_random_uuid(), 1, 'WEBHOOK', endpoint_id, event_id, event_type,
        occurred_at - interval '1 hour', 'PENDING', 0, now(), '[]'::jsonb
      from event_delivery where endpoint_id = $1 order by occurred_at limit 1`;
    if (process.env.DATABASE_URL) {
      // Its transaction stays open while the worker records and claims (as a dispatch under
      // way): the claims must not move the start past what they cannot see yet.
      const peer = new Client({ connectionString: await workerDatabaseUrl() });
      await peer.connect();
      try {
        await peer.query('begin');
        await peer.query(insert, [hook.id]);
        await new Promise((r) => setTimeout(r, 250));
        await peer.query('commit');
      } finally {
        await peer.end();
      }
    } else {
      // The embedded database has one session for all its clients: no transaction can stay open
      // beside the worker's, so the insert commits at once.
      await server.orm.em.getConnection().execute(insert.replace('$1', '?'), [hook.id]);
    }
    const got = await waitFor(() => receiver.at('/late').length === ids.length + 1 && receiver.at('/late'));
    expect(got.map(resourceOf).sort()).toEqual([...ids, ids[0]].sort());
    const log = await waitFor(async () => {
      const all = await deliveries(hook.id);
      return all.length === ids.length + 1 && all.every((d) => d.status === 'DELIVERED') && all;
    });
    expect(log).toHaveLength(ids.length + 1);
  });

  it("opens a failing endpoint's circuit: nothing is sent to it for a while, then one probe at a time", async () => {
    const hook = await register('/broken', () => 503);
    await createFeatures(6, 'Broken');
    start({ endpointConcurrency: 2, circuitFailures: 3, retryBaseMs: 2000, retryMaxMs: 4000 });
    const circuit = async () =>
      (
        await server.orm.em
          .getConnection()
          .execute(
            `select consecutive_failures as failures, circuit_open_until > now() as open from webhook_endpoint where id = ?`,
            [hook.id],
          )
      )[0] as { failures: number; open: boolean };
    // Three failures in a row (the window's two, then the next) open the circuit.
    const opened = await waitFor(async () => {
      const now = await circuit();
      return now.open && now;
    });
    expect(opened.failures).toBeGreaterThanOrEqual(3);
    const sent = receiver.at('/broken').length;
    // Open for the backoff (1.6-2.4 s): nothing goes to the endpoint meanwhile.
    await new Promise((r) => setTimeout(r, 1200));
    expect(receiver.at('/broken').length).toBe(sent);
    // Then one probe; it fails, and the circuit opens again, for longer.
    await waitFor(() => receiver.at('/broken').length > sent, 10_000, 'the probe');
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.at('/broken').length).toBe(sent + 1);
    expect(await circuit()).toEqual({ failures: opened.failures + 1, open: true });
    // Its deliveries are all still pending, none given up.
    expect((await deliveries(hook.id)).every((d) => d.status === 'PENDING')).toBe(true);
    // Turned off and on again by hand, it starts afresh.
    expect((await a.client.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    expect((await a.client.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(200);
    expect(await circuit()).toEqual({ failures: 0, open: null });
    expect((await a.client.delete(`/webhooks/${hook.id}`)).status).toBe(204);
  }, 60_000);

  it('stops the deliveries in flight to an endpoint deleted meanwhile, and sends it nothing after', async () => {
    const hook = await register('/deleted', () => 'hang');
    await createFeatures(2, 'Deleted');
    start({ endpointConcurrency: 2, timeoutMs: 20_000 });
    await waitFor(() => receiver.at('/deleted').length === 2);
    expect((await a.client.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    // The requests are abandoned within a lease renewal, long before their timeout.
    await waitFor(() => receiver.abandoned('/deleted') === 2, 5000, 'the requests to be abandoned');
    await createFeatures(1, 'After deletion');
    await worker!.runOnce();
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/deleted')).toHaveLength(2);
  }, 60_000);

  it('stops without waiting for a hanging request: gives its claim back, and the next worker sends it at once', async () => {
    const hook = await register('/stopped', (req, nth) => (nth === 1 ? 'hang' : 200));
    const [id] = await createFeatures(1, 'Stopped');
    start({ timeoutMs: 20_000, leaseMs: 10_000 });
    await waitFor(() => receiver.at('/stopped').length === 1);
    const began = Date.now();
    await worker!.stop();
    worker = undefined;
    // The grace for attempts in flight (3 s), not the request's 20 s timeout.
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(receiver.abandoned('/stopped')).toBe(1);
    const [given] = await deliveries(hook.id);
    expect(given).toMatchObject({ status: 'PENDING', attempts: 0 });
    // Free at once, not after the 10 s lease.
    const restarted = Date.now();
    start({ timeoutMs: 20_000, leaseMs: 10_000 });
    await waitFor(() => receiver.at('/stopped').length === 2);
    expect(Date.now() - restarted).toBeLessThan(5000);
    expect(resourceOf(receiver.at('/stopped')[1])).toBe(id);
    const [delivered] = await waitFor(async () => {
      const all = await deliveries(hook.id);
      return all[0]?.status === 'DELIVERED' && all;
    });
    expect(delivered.attempts).toBe(1);
  });

  it("renews a lease without waiting for a delivery's record under way, and calls lost only a claim it no longer holds", async () => {
    const hook = await register('/renewed', () => 'hang');
    await createFeatures(1, 'Renewed');
    start({ timeoutMs: 20_000, leaseMs: 10_000 });
    await waitFor(() => receiver.at('/renewed').length === 1);
    const [row] = await asEventWorker(server.orm, (q) =>
      q<{ tenant_id: string; id: string; attempts: number; locked_by: string; locked_until: Date }>(
        `select tenant_id, id, attempts, locked_by, locked_until from event_delivery where endpoint_id = ?`,
        [hook.id],
      ),
    );
    const claim = { tenant_id: row.tenant_id, id: row.id, attempts: row.attempts } as Claim;
    const settings = { ...base, leaseMs: 10_000 };
    // Another claim of the same delivery (a later attempt) is not this one: lost.
    expect(
      await renewLeases(server.orm, settings, row.locked_by, [{ ...claim, attempts: row.attempts + 1 }]),
    ).toEqual([expect.objectContaining({ id: row.id })]);
    if (process.env.DATABASE_URL) {
      // The row locked by a transaction left open, as the worker's own record of it would: the
      // renewal passes over it at once (waiting made the two deadlock), and still holds it.
      const peer = new Client({ connectionString: await workerDatabaseUrl() });
      await peer.connect();
      try {
        await peer.query('begin');
        await peer.query(`select set_config('app.worker', 'events', true)`);
        await peer.query(`select 1 from event_delivery where tenant_id = $1 and id = $2 for update`, [
          row.tenant_id,
          row.id,
        ]);
        const began = Date.now();
        expect(await renewLeases(server.orm, settings, row.locked_by, [claim])).toEqual([]);
        expect(Date.now() - began).toBeLessThan(1000);
      } finally {
        await peer.query('rollback');
        await peer.end();
      }
    }
    // Free of locks, the renewal moves the lease on.
    expect(await renewLeases(server.orm, settings, row.locked_by, [claim])).toEqual([]);
    const [renewed] = await asEventWorker(server.orm, (q) =>
      q<{ locked_until: Date }>(`select locked_until from event_delivery where tenant_id = ? and id = ?`, [
        row.tenant_id,
        row.id,
      ]),
    );
    expect(new Date(renewed.locked_until).getTime()).toBeGreaterThan(new Date(row.locked_until).getTime());
  }, 60_000);

  it('shows the lag of each endpoint and the deliveries it made in the metrics', async () => {
    const stuck = await register('/stuck', () => 503);
    const counted = await register('/counted');
    await createFeatures(2, 'Measured');
    start({ retryBaseMs: 60_000, retryMaxMs: 60_000 });
    await waitFor(() => receiver.at('/counted').length === 2 && receiver.at('/stuck').length === 2);
    const metrics = await waitFor(async () => {
      const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
      // Counted as they end, the attempts are recorded an instant later.
      const caughtUp = !text.includes(`stage="webhook",endpoint="${counted.id}"`);
      return text.includes(`endpoint="${stuck.id}",outcome="failed"} 2`) && caughtUp && text;
    });
    expect(metrics).toContain(
      `event_deliveries_total{channel="webhook",endpoint="${counted.id}",outcome="ok"} 2`,
    );
    // The failing endpoint's oldest event waits (for its retry); the healthy one has caught up.
    const lag = (id: string) =>
      metrics.match(
        new RegExp(`event_delivery_lag_seconds{stage="webhook",endpoint="${id}"} ([0-9.e-]+)`),
      )?.[1];
    expect(Number(lag(stuck.id))).toBeGreaterThan(0);
    expect(lag(counted.id)).toBeUndefined();
    expect(metrics).toMatch(/event_delivery_lag_seconds\{stage="dispatch",endpoint=""\} 0\n/);
    expect((await a.client.delete(`/webhooks/${stuck.id}`)).status).toBe(204);
  });
});
