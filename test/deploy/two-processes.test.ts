import { randomUUID } from 'node:crypto';
import { Client, expectErrorBody } from '../support/http';
import { errorLines, type Running } from '../support/process';
import { sampleType } from '../configurator/fixtures';
import { startReceiver } from '../events/receiver';
import { deployment, eventually, startPair, type Deployment, type ProcessPair } from './deployment';

/**
 * Two service processes on one PostgreSQL database and one Redis, as behind a load balancer:
 * every guarantee of one process must hold across both. Needs DATABASE_URL (as in CI) and the
 * Redis at REDIS_URL (default 127.0.0.1:6379). One pair serves the whole file; the last test
 * kills one of them.
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;
jest.setTimeout(300_000);

const LIMIT = 40;

onServer('two service processes on one database', () => {
  let d: Deployment;
  let tenant: Awaited<ReturnType<Deployment['tenant']>>;
  let processes: ProcessPair | undefined;
  let services: Running[] = [];
  let bases: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** A client of each process, sharing one credential. */
  const pair = () => {
    const token = tenant.token();
    return bases.map((b) => new Client(b, token));
  };

  beforeAll(async () => {
    d = await deployment('deploy');
    // Answers take a moment, so that deliveries are in flight (and their claims visible) at once.
    receiver = await startReceiver(() => ({ status: 200, afterMs: 300 }));
    processes = await startPair(d, {
      RATE_LIMIT_PER_CREDENTIAL: String(LIMIT),
      RATE_LIMIT_PER_TENANT: '0',
      DB_POOL_SIZE: '4',
      // Webhooks to the local receiver; a process's claims outlive it by one second.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      EVENT_LEASE_MS: '1000',
      EVENT_POLL_INTERVAL_MS: '100',
      // One process alone makes fewer deliveries a second than the writes make events: both must.
      EVENT_DELIVERY_CONCURRENCY: '8',
      WEBHOOK_ENDPOINT_CONCURRENCY: '64',
      // Writes here outrun the slow receiver on purpose, and must all be answered 201: the bound
      // that holds a lagging tenant's writes (and refuses them after a wait) is
      // test/events/lag-bound.test.ts's to prove.
      EVENT_LAG_BOUND_MS: '0',
    });
    ({ services, bases } = processes);
    tenant = await d.tenant('Deploy');
  });

  afterAll(async () => {
    await processes?.stop();
    await d?.close();
    await receiver?.close();
  });

  /** The names of the concepts whose `concept.created` webhook arrived, once per arrival. */
  const conceptsDelivered = () =>
    receiver.at('/concepts').map((r) => (JSON.parse(r.body) as { data: { name: string } }).data.name);

  it('migrated the empty database once, though both started on it at the same time', async () => {
    const { rows } = await d.sql.query(
      `select count(*)::int as n from mikro_orm_migrations where name = 'Migration20261123130000_idempotency'`,
    );
    expect(rows[0].n).toBe(1);
    for (const s of services) expect(errorLines(s.stdout())).toEqual([]);
  });

  it('shares the rate limit: the limit is reached through both processes together', async () => {
    const [one, two] = pair();
    for (let i = 0; i < LIMIT; i++) {
      const res = await (i % 2 ? two : one).get('/notifications/unread-count');
      expect(res.status).toBe(200);
      // The count is the shared one: each answer shows what both have used.
      expect(res.headers.get('ratelimit')).toContain(`r=${LIMIT - i - 1};`);
    }
    for (const client of [one, two]) {
      const refused = await client.get('/notifications/unread-count');
      expectErrorBody(refused, 429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-policy')).toContain(`${LIMIT};`);
    }
  });

  it('replays an idempotent retry sent to the other process, without running it again', async () => {
    const [one, two] = pair();
    const key = randomUUID();
    const name = `Idempotent ${key}`;
    const first = await one.post('/concepts', { name }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await two.post('/concepts', { name }, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
    expect(retry.body).toEqual(first.body);

    // The same key with another request is refused, on either process.
    expectErrorBody(
      await two.post('/concepts', { name: `${name} (changed)` }, { 'idempotency-key': key }),
      422,
    );
    expectErrorBody(await one.post('/concepts', { name }, { 'idempotency-key': 'a key with spaces' }), 400);

    const stored = await d.sql.query(
      'select count(*)::int as n from concept where tenant_id = $1 and name = $2',
      [tenant.tenantId, name],
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('answers 409 while the first request with a key still runs, and runs a retry once it has ended', async () => {
    const [one, two] = pair();
    const key = randomUUID();
    const name = `Held ${key}`;
    // A request holding the key holds this advisory lock in its transaction (src/http/idempotency.ts);
    // taking it here stands for a first request that is still running on another process.
    const lock = [`idempotency:${tenant.tenantId}:${tenant.userId}:${key}`];
    await d.sql.query('select pg_advisory_lock(hashtextextended($1, 0))', lock);
    try {
      expectErrorBody(await one.post('/concepts', { name }, { 'idempotency-key': key }), 409);
      expectErrorBody(await two.post('/concepts', { name }, { 'idempotency-key': key }), 409);
    } finally {
      await d.sql.query('select pg_advisory_unlock(hashtextextended($1, 0))', lock);
    }
    const ran = await two.post('/concepts', { name }, { 'idempotency-key': key });
    expect(ran.status).toBe(201);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
    expect(
      (await one.post('/concepts', { name }, { 'idempotency-key': key })).headers.get('idempotent-replayed'),
    ).toBe('true');
    const stored = await d.sql.query(
      'select count(*)::int as n from concept where tenant_id = $1 and name = $2',
      [tenant.tenantId, name],
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('replays a GraphQL mutation retried on the other process; a query ignores the header', async () => {
    const [one, two] = pair();
    const key = randomUUID();
    const mutation = {
      query: 'mutation($input: CreateConceptInput!) { createConcept(input: $input) { id name } }',
      variables: { input: { name: `GraphQL ${key}` } },
    };
    const first = await one.request('POST', '/graphql', mutation, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const retry = await two.request('POST', '/graphql', mutation, { 'idempotency-key': key });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const changed = await two.request(
      'POST',
      '/graphql',
      { ...mutation, variables: { input: { name: 'Another' } } },
      { 'idempotency-key': key },
    );
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].extensions).toMatchObject({ code: 'UNPROCESSABLE_CONTENT', status: 422 });

    const query = { query: '{ conceptPage(pageSize: 1) { totalElements } }' };
    const read = await one.request('POST', '/graphql', query, { 'idempotency-key': key });
    expect(read.status).toBe(200);
    expect(read.headers.get('idempotent-replayed')).toBeNull();

    const stored = await d.sql.query(
      'select count(*)::int as n from concept where tenant_id = $1 and name = $2',
      [tenant.tenantId, `GraphQL ${key}`],
    );
    expect(stored.rows[0].n).toBe(1);
  });

  it('numbers invoices created at once through both processes gaplessly and uniquely', async () => {
    const [one, two] = pair();
    const invoiceDate = '2031-03-01T00:00:00.000Z';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? two : one).post('/invoices', { invoiceDate })),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const numbers = answers.map((r) => r.body.invoiceNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `2031-${String(i + 1).padStart(5, '0')}`));
  });

  /** Creates a configurator type (the sample, with `facadeCodes` more codes) and returns its id. */
  const createType = async (client: Client, name: string, facadeCodes = 0): Promise<string> => {
    const input = sampleType(name);
    const facade = (input.options as { name: string; codes: { code: string }[] }[]).find(
      (o) => o.name === 'Facade',
    )!;
    for (let i = 0; i < facadeCodes; i++) facade.codes.push({ code: `C${i}` });
    const res = await client.graphql(
      'mutation($input: CreateConfiguratorTypeInput!) { createConfiguratorType(input: $input) { id } }',
      { input },
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data.createConfiguratorType.id;
  };
  const jobRow = async (id: string) =>
    (
      await d.sql.query(
        // The job's history is kept in record_history (docs/history.md), oldest first as `events` shows it.
        `select status, retries, worker_name, message,
           (select coalesce(json_agg(json_build_object('type', h.type, 'description', h.description) order by h.seq), '[]')
              from record_history h where h.tenant_id = c.tenant_id and h.record_id = c.id) as events
         from coverage_job c where tenant_id = $1 and id = $2`,
        [tenant.tenantId, id],
      )
    ).rows[0];
  const coverageCount = async (typeId: string) =>
    (
      await d.sql.query(
        `select count(*)::int as n, count(distinct variant_id)::int as variants from type_product_coverage where tenant_id = $1 and type_id = $2`,
        [tenant.tenantId, typeId],
      )
    ).rows[0];
  const statusChanges = (row: { events: { type: string; description: string }[] }) =>
    row.events.filter((e) => e.type === 'STATUS_CHANGE').map((e) => e.description);

  it('processes a coverage job queued once exactly once, whichever process claims it', async () => {
    const [one, two] = pair();
    const jobs: { id: string; typeId: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const client = i % 2 ? two : one;
      const typeId = await createType(client, `Queued ${i}`);
      const queued = await client.post(`/type-product-coverages/calculate/${typeId}`);
      expect(queued.status).toBe(200);
      jobs.push(...queued.body.map((j: { id: string }) => ({ id: j.id, typeId })));
    }
    expect(jobs).toHaveLength(4);
    for (const { id, typeId } of jobs) {
      const done = await eventually(`job ${id} to end`, async () => {
        const row = await jobRow(id);
        return row.status === 'DONE' || row.status === 'FAILED' ? row : undefined;
      });
      expect({ status: done.status, retries: done.retries, changes: statusChanges(done) }).toEqual({
        status: 'DONE',
        retries: 0,
        changes: ['PENDING -> RUNNING', 'RUNNING -> DONE'],
      });
      expect(await coverageCount(typeId)).toEqual({ n: 3, variants: 3 });
    }
  });

  it('delivers the webhooks of writes made through both processes once each, both processes claiming', async () => {
    const [one, two] = pair();
    const hook = await one.post('/webhooks', {
      url: `${receiver.url}/concepts`,
      events: ['concept.created'],
    });
    expect(hook.status).toBe(201);
    const names = Array.from({ length: 120 }, (_, i) => `Hooked ${i}`);
    // Four writers at once, two on each process.
    for (let i = 0; i < names.length; i += 4)
      await Promise.all(
        names.slice(i, i + 4).map(async (name, j) => {
          const res = await (j % 2 ? two : one).withToken(tenant.token()).post('/concepts', { name });
          expect(res.status).toBe(201);
        }),
      );
    // Which workers hold claims, seen while the deliveries run.
    const claimants = new Set<string>();
    await eventually('every webhook to arrive', async () => {
      const held = await d.sql.query(
        `select distinct locked_by::text as worker from event_delivery where locked_by is not null`,
      );
      for (const r of held.rows) claimants.add(r.worker as string);
      return names.every((n) => conceptsDelivered().includes(n)) ? true : undefined;
    });
    expect(claimants.size).toBe(2);
    // Nothing failed, so nothing arrived twice.
    const arrived = conceptsDelivered();
    expect(arrived.filter((n) => n.startsWith('Hooked '))).toHaveLength(names.length);
    const ids = receiver.at('/concepts').map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    // Each delivery was recorded once, made at the first attempt.
    const recorded = await eventually('every attempt to be recorded', async () => {
      const { rows } = await d.sql.query(
        `select status, attempts, count(*)::int as n from event_delivery where tenant_id = $1 and endpoint_id = $2
         group by status, attempts`,
        [tenant.tenantId, hook.body.id],
      );
      return rows.length === 1 && rows[0].status === 'DELIVERED' ? rows : undefined;
    });
    expect(recorded).toEqual([{ status: 'DELIVERED', attempts: 1, n: names.length }]);
  });

  it('a process killed (SIGKILL) mid-request loses no acknowledged write, and its job is taken over after its lease', async () => {
    const [one, two] = pair();
    const clients = [one, two];
    // Writes stream into both processes until one of them is killed.
    const acknowledged: string[] = [];
    const unexpected: number[] = [];
    let streaming = true;
    const stream = (client: Client, label: string) =>
      (async () => {
        for (let i = 0; streaming; i++) {
          const name = `Stream ${label} ${i}`;
          try {
            // A token per request keeps the stream clear of the credential's rate limit.
            const res = await client.withToken(tenant.token()).post('/concepts', { name });
            if (res.status === 201) acknowledged.push(name);
            else unexpected.push(res.status);
          } catch {
            return; // the connection died with the process
          }
        }
      })();
    const streams = [stream(one, 'one'), stream(two, 'two')];

    await eventually('writes to be acknowledged', async () => (acknowledged.length >= 4 ? true : undefined));
    // 3000 more facade codes: 3003 variants, some seconds of work, so the kill finds it running.
    const typeId = await createType(one, 'Large', 3000);
    const [queued] = (await one.post(`/type-product-coverages/calculate/${typeId}`)).body;

    // The process that claimed the job is the one to kill, while it runs the job.
    const running = await eventually('the large job to run', async () => {
      const row = await jobRow(queued.id);
      return row.status === 'RUNNING' ? row : undefined;
    });
    const victim = services.findIndex((s) => running.worker_name.endsWith(`:${s.child.pid}`));
    expect(victim).not.toBe(-1);
    // Killed at once: writes are in flight on it, and the job is in its first chunks.
    services[victim].child.kill('SIGKILL');
    expect((await services[victim].exited).signal).toBe('SIGKILL');
    streaming = false;
    await Promise.all(streams);

    // Every acknowledged write is stored.
    const { rows } = await d.sql.query(
      `select name from concept where tenant_id = $1 and name like 'Stream %'`,
      [tenant.tenantId],
    );
    const stored = new Set(rows.map((r) => r.name as string));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    expect(unexpected).toEqual([]);

    // The job stays the dead process's until its lease runs out; its lease is made to run out
    // now rather than in ten minutes.
    expect((await jobRow(queued.id)).status).toBe('RUNNING');
    await d.sql.query(
      `update coverage_job set updated = now() - interval '1 hour' where tenant_id = $1 and id = $2`,
      [tenant.tenantId, queued.id],
    );
    const takenOver = await eventually('the job to be taken over', async () => {
      const row = await jobRow(queued.id);
      return row.retries === 1 ? row : undefined;
    });
    expect(takenOver.message).toContain(`worker ${running.worker_name} stopped responding`);
    // The retry waits for its backoff; brought forward, the surviving process runs it to the end.
    await d.sql.query(
      `update coverage_job set run_after = now() where tenant_id = $1 and id = $2 and status = 'PENDING'`,
      [tenant.tenantId, queued.id],
    );
    const survivor = clients[1 - victim];
    const done = await eventually('the job to end', async () => {
      const row = await jobRow(queued.id);
      return row.status === 'DONE' || row.status === 'FAILED' ? row : undefined;
    });
    expect(done.status).toBe('DONE');
    expect(done.worker_name.endsWith(`:${services[1 - victim].child.pid}`)).toBe(true);
    expect(await coverageCount(typeId)).toEqual({ n: 3003, variants: 3003 });
    expect((await survivor.get('/notifications/unread-count')).status).toBe(200);

    // Every acknowledged write's webhook arrives: what the killed process had claimed is taken
    // over once its leases run out, and the survivor drains the rest.
    await eventually(
      'the webhooks of every acknowledged write',
      async () => {
        const arrived = new Set(conceptsDelivered());
        return acknowledged.every((name) => arrived.has(name)) ? true : undefined;
      },
      30_000,
    );
  });
});
