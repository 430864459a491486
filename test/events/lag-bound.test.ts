import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/logger';
import { signToken } from '../../src/auth/jwt';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { dispatchOutbox, startEventWorker, type EventWorker } from '../../src/events/worker';
import { deliveryLag } from '../../src/events/delivery-repository';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { startReceiver, waitFor, type Answer, type Received } from './receiver';

// The receivers are local HTTP servers on 127.0.0.1, which only this setting lets through.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const BOUND_MS = 300;
const WAIT_MS = 1200;

const workerSettings: EventSettings = {
  ...eventSettings({}),
  allowPrivateTargets: true,
  timeoutMs: 3000,
  retryBaseMs: 60_000,
  retryMaxMs: 60_000,
  leaseMs: 2000,
  pollIntervalMs: 50,
  slowReceiverMs: 200,
};

/**
 * The bound on accepted writes (src/events/lag-bound.ts): a tenant whose healthy endpoint the
 * service has left behind waits, then is refused, over REST and GraphQL; its reads and other
 * tenants never wait; an endpoint that is slow or failing is the receiver's lag and holds nothing;
 * a held write goes through once the service catches up.
 */
describe('the bound on writes while events are behind', () => {
  let server: TestServer;
  let behind: TestTenant;
  let other: TestTenant;
  let worker: EventWorker | undefined;
  const answers = new Map<string, (req: Received, nth: number) => Answer>();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startServer({ http: { lagBound: { boundMs: BOUND_MS, maxWaitMs: WAIT_MS } } });
    [behind, other] = [await server.tenant('Behind'), await server.tenant('Other')];
    receiver = await startReceiver((req, nth) => answers.get(req.path)?.(req, nth) ?? 200);
  }, 120_000);
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const register = async (
    t: TestTenant,
    pathName: string,
    answer?: (req: Received, nth: number) => Answer,
  ) => {
    if (answer) answers.set(pathName, answer);
    const res = await t.client.post('/webhooks', {
      url: receiver.url + pathName,
      events: ['concept.created'],
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const create = (t: TestTenant, name: string) => t.client.post('/concepts', { name });
  /**
   * Fans out every event written so far, as a running worker would have at once: with none
   * running, the outbox's oldest event (any tenant's) ages, and that lag is the service's too.
   */
  const dispatched = async () => {
    while ((await dispatchOutbox(server.orm)) > 0);
  };
  const timed = async <T>(work: Promise<T>): Promise<[T, number]> => {
    const started = Date.now();
    const result = await work;
    return [result, Date.now() - started];
  };
  const start = (settings: Partial<EventSettings> = {}) =>
    (worker = startEventWorker(
      server.orm,
      createLogger('silent'),
      { ...workerSettings, ...settings },
      undefined,
      Boolean(process.env.DATABASE_URL),
    ));
  /** The oldest undelivered event of an endpoint, in ms (0: none). */
  const endpointLag = async (endpointId: string) =>
    1000 * ((await deliveryLag(server.orm)).webhooks.find((w) => w.endpointId === endpointId)?.seconds ?? 0);
  const counted = async (outcome: string) =>
    (await server.app.metrics.registry.getSingleMetric('event_lag_bound_writes_total')!.get()).values.find(
      (v) => v.labels.outcome === outcome,
    )?.value ?? 0;

  it('holds the writes of a tenant whose healthy endpoint is behind, then refuses them with 429; reads and other tenants pass', async () => {
    const hook = await register(behind, '/behind');
    await register(other, '/other');
    for (let i = 0; i < 3; i++) {
      await dispatched();
      expect((await create(behind, `Waiting ${i}`)).status).toBe(201);
    }
    // Fanned out into deliveries, which no worker sends.
    await dispatched();
    await new Promise((r) => setTimeout(r, BOUND_MS + 200));
    expect(await endpointLag(hook)).toBeGreaterThan(BOUND_MS);
    const refusedBefore = await counted('refused');

    const [rest, restMs] = await timed(create(behind, 'Refused'));
    expectErrorBody(rest, 429);
    expect(rest.body.detail).toMatch(/events are behind/);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(restMs).toBeGreaterThanOrEqual(WAIT_MS - 50);
    // The signal as the bound last read it.
    const gauge = async (name: string) =>
      (await server.app.metrics.registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
    expect(await gauge('event_service_lag_seconds')).toBeGreaterThan(BOUND_MS / 1000);
    expect(await gauge('event_lag_bound_tenants')).toBeGreaterThanOrEqual(1);

    const [gql, gqlMs] = await timed(
      behind.client.graphql('mutation($i: CreateConceptInput!) { createConcept(input: $i) { id } }', {
        i: { name: 'Refused too' },
      }),
    );
    expect(gql.status).toBe(429);
    expect(gql.headers.get('retry-after')).toBe(rest.headers.get('retry-after'));
    expect(gql.body.errors![0].message).toMatch(/events are behind/);
    expect(gqlMs).toBeGreaterThanOrEqual(WAIT_MS - 50);

    // A mutation with an Idempotency-Key is checked before Apollo runs it, and again by Apollo:
    // one wait, not two.
    const [keyed, keyedMs] = await timed(
      behind.client.request(
        'POST',
        '/graphql',
        {
          query: 'mutation($i: CreateConceptInput!) { createConcept(input: $i) { id } }',
          variables: { i: { name: 'Refused with a key' } },
        },
        { 'idempotency-key': randomUUID() },
      ),
    );
    expect(keyed.status).toBe(429);
    expect(keyedMs).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(keyedMs).toBeLessThan(2 * WAIT_MS - 100);
    expect(await counted('refused')).toBe(refusedBefore + 3);

    // Another process reads the same lag from the database.
    const second = await startServer({ http: { lagBound: { boundMs: BOUND_MS, maxWaitMs: WAIT_MS } } });
    try {
      const [elsewhere, elsewhereMs] = await timed(
        new Client(
          second.baseUrl,
          signToken(second.jwt, { sub: behind.adminId, email: behind.adminEmail, tenantId: behind.tenantId }),
        ).post('/concepts', { name: 'Refused elsewhere' }),
      );
      expectErrorBody(elsewhere, 429);
      expect(elsewhereMs).toBeGreaterThanOrEqual(WAIT_MS - 50);
    } finally {
      await second.close();
    }

    // Neither refused write was made.
    const names = ((await behind.client.get('/concepts/find-all')).body as { name: string }[]).map(
      (c) => c.name,
    );
    expect(names).not.toContain('Refused');
    for (const refused of ['Refused too', 'Refused with a key', 'Refused elsewhere'])
      expect(names).not.toContain(refused);

    // Reads of the same tenant, and another tenant's writes, go at once.
    await dispatched();
    const [read, readMs] = await timed(behind.client.get('/concepts/find-all'));
    expect(read.status).toBe(200);
    const [query, queryMs] = await timed(behind.client.graphql('{ allConcepts { id } }'));
    expect(query.status).toBe(200);
    const [write, writeMs] = await timed(create(other, 'Elsewhere'));
    expect(write.status).toBe(201);
    for (const ms of [readMs, queryMs, writeMs]) expect(ms).toBeLessThan(WAIT_MS / 2);
  });

  it('lets a held write through once the service catches up, not refused', async () => {
    const heldBefore = await counted('held');
    const refusedBefore = await counted('refused');
    const [[res, ms]] = await Promise.all([
      timed(create(behind, 'Held')),
      (async () => {
        await new Promise((r) => setTimeout(r, WAIT_MS / 4));
        await start().runOnce();
      })(),
    ]);
    expect(res.status).toBe(201);
    expect(ms).toBeGreaterThanOrEqual(WAIT_MS / 4);
    expect(ms).toBeLessThan(WAIT_MS + 1000);
    expect(await counted('held')).toBe(heldBefore + 1);
    expect(await counted('refused')).toBe(refusedBefore);
  });

  it('does not hold a tenant whose only lagging endpoint is slow', async () => {
    const slowTenant = await server.tenant('Slow receiver');
    const hook = await register(slowTenant, '/slow', () => ({ status: 200, afterMs: 400 }));
    await dispatched();
    for (let i = 0; i < 8; i++) expect((await create(slowTenant, `Slowly ${i}`)).status).toBe(201);
    start({ endpointConcurrency: 1 });
    // Four answers, all late, mark the endpoint slow; its backlog is older than the bound by then.
    await waitFor(() => receiver.at('/slow').length >= 4, 10_000);
    await waitFor(async () => (await endpointLag(hook)) > BOUND_MS + 100, 10_000);
    const [res, ms] = await timed(create(slowTenant, 'Not held'));
    expect(res.status).toBe(201);
    expect(ms).toBeLessThan(WAIT_MS / 2);
    // It was still behind when the write went.
    expect(await endpointLag(hook)).toBeGreaterThan(BOUND_MS);
  });

  it('does not hold a tenant whose only lagging endpoint hangs, once it has hung for four times the slow time', async () => {
    const hangingTenant = await server.tenant('Hanging receiver');
    const hook = await register(hangingTenant, '/hanging', () => 'hang');
    await dispatched();
    for (let i = 0; i < 3; i++) expect((await create(hangingTenant, `Hanging ${i}`)).status).toBe(201);
    // Lease renewals (every 500 ms) look at attempts running 800 ms with no answer.
    start({ slowReceiverMs: 200, timeoutMs: 10_000 });
    await waitFor(() => receiver.at('/hanging').length >= 1, 10_000);
    await waitFor(async () => {
      const [row] = await server.orm.em
        .getConnection()
        .execute<{ slow: boolean }[]>(
          `select slow_until > now() as slow from webhook_endpoint where id = ?`,
          [hook],
        );
      return row?.slow === true;
    }, 10_000);
    expect(await endpointLag(hook)).toBeGreaterThan(BOUND_MS);
    const [res, ms] = await timed(create(hangingTenant, 'Not held by a hang'));
    expect(res.status).toBe(201);
    expect(ms).toBeLessThan(WAIT_MS / 2);
  });

  it('does not hold a tenant whose only lagging endpoint fails', async () => {
    const failingTenant = await server.tenant('Failing receiver');
    const hook = await register(failingTenant, '/failing', () => 500);
    await dispatched();
    for (let i = 0; i < 3; i++) expect((await create(failingTenant, `Failing ${i}`)).status).toBe(201);
    // Each delivery is attempted once and refused; the retries are a minute away.
    await start().runOnce();
    await worker!.stop();
    worker = undefined;
    await new Promise((r) => setTimeout(r, BOUND_MS + 100));
    expect(await endpointLag(hook)).toBeGreaterThan(BOUND_MS);
    await dispatched();
    const [res, ms] = await timed(create(failingTenant, 'Not held either'));
    expect(res.status).toBe(201);
    expect(ms).toBeLessThan(WAIT_MS / 2);
  });
});
