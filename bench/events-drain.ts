/**
 * The events drain: a backlog of outbox events (written straight into the outbox, as the flushes
 * of that many creates would have) drained by the event workers of this process to local
 * receivers on 127.0.0.1 that answer 200 at once, one of them optionally slow. Prints the
 * deliveries per second, the lag of each endpoint, and the plan of the claiming statement with
 * the backlog in place.
 *
 *   node -r ./test/support/register-ts.js bench/events-drain.ts
 *
 * Settings: BENCH_EVENTS (20,000), BENCH_ENDPOINTS (1), BENCH_SLOW_MS (0: no slow endpoint; else the
 * last endpoint answers after this long), BENCH_EVENT_WORKERS (1: workers, each with its own pool,
 * as processes would have), DATABASE_URL (the local server), BENCH_KEEP=1 keeps the database.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { enableRowLevelSecurity, migrate, openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { createTenant } from '../src/services/provisioning';
import { eventSettings } from '../src/events/settings';
import { startEventWorker } from '../src/events/worker';
import { createBenchDatabase } from './database';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);
const WORKERS = Number(process.env.BENCH_EVENT_WORKERS ?? 1);

interface Receiver {
  url: string;
  hits: Map<string, number>;
  ids: Set<string>;
  duplicates: string[];
  lags: Map<string, number[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const hits = new Map<string, number>();
  const ids = new Set<string>();
  const duplicates: string[] = [];
  const lags = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { occurredAt: string };
      const key = `${path} ${String(req.headers['webhook-id'])}`;
      if (ids.has(key)) duplicates.push(key);
      ids.add(key);
      const answer = () => {
        hits.set(path, (hits.get(path) ?? 0) + 1);
        const lag = lags.get(path) ?? [];
        lag.push(Date.now() - Date.parse(body.occurredAt));
        lags.set(path, lag);
        res.writeHead(200).end('ok');
      };
      if (SLOW_MS > 0 && path === `/hook${ENDPOINTS - 1}` && ENDPOINTS > 1) setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    ids,
    duplicates,
    lags,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const db = await createBenchDatabase(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const orm = await openOrm({ clientUrl: db.url, poolMax: 4 });
  const receiver = await startReceiver();
  try {
    await migrate(orm);
    await enableRowLevelSecurity(orm);
    const { tenant } = await createTenant(orm.em.fork(), { name: 'Drain', adminEmail: 'admin@drain.test' });
    const sql = orm.em.getConnection();
    for (let i = 0; i < ENDPOINTS; i++)
      await sql.execute(
        `insert into webhook_endpoint (tenant_id, id, url, events, active, secret, version)
         values (?, gen_random_uuid(), ?, '{*}', true, 'whsec_ZHJhaW4tYmVuY2gtc2VjcmV0LTEyMzQ1Njc4', 1)`,
        [tenant.id, `${receiver.url}/hook${i}`],
      );
    // The outbox rows as a flush writes them: one per event, the record's data as JSON.
    await sql.execute(
      `insert into outbox_event (tenant_id, id, type, resource_type, resource_id, occurred_at, actor, data)
       select ?, gen_random_uuid(), 'feature.created', 'feature', gen_random_uuid()::text,
         clock_timestamp(), null, jsonb_build_object('name', 'Feature ' || n, 'status', 'NEW', 'n', n)
       from generate_series(1, ?) n`,
      [tenant.id, EVENTS],
    );
    await sql.execute('vacuum analyze outbox_event');
    const settings = {
      ...eventSettings(process.env),
      allowPrivateTargets: true,
      pollIntervalMs: 100,
    };
    const orms = [orm];
    for (let i = 1; i < WORKERS; i++) orms.push(await openOrm({ clientUrl: db.url, poolMax: 4 }));
    const expected = EVENTS * ENDPOINTS;
    const load0 = loadavg()[0];
    const started = Date.now();
    const workers = orms.map((o) => startEventWorker(o, createLogger('silent'), settings));
    const total = () => [...receiver.hits.values()].reduce((a, b) => a + b, 0);
    const timeline: string[] = [];
    let last = 0;
    const limitMs = Number(process.env.BENCH_DRAIN_LIMIT_S ?? 600) * 1000;
    while (total() < expected && Date.now() - started < limitMs) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = total();
      timeline.push(String(now - last));
      last = now;
    }
    const seconds = (Date.now() - started) / 1000;
    await Promise.all(workers.map((w) => w.stop()));
    for (const o of orms.slice(1)) await o.close(true);
    const done = total();
    console.log(
      JSON.stringify(
        {
          events: EVENTS,
          endpoints: ENDPOINTS,
          slowMs: SLOW_MS,
          workers: WORKERS,
          delivered: done,
          duplicates: receiver.duplicates,
          expected,
          seconds,
          perSecond: Math.round(done / seconds),
          perSecondTimeline: timeline.join(','),
          loadAverage: { before: load0, after: loadavg()[0] },
          endpointsSeen: [...receiver.hits.entries()].map(([path, n]) => ({
            path,
            delivered: n,
            lagP50Ms: percentile(receiver.lags.get(path) ?? [], 50),
            lagP99Ms: percentile(receiver.lags.get(path) ?? [], 99),
          })),
        },
        null,
        2,
      ),
    );
  } finally {
    await receiver.close();
    await orm.close(true);
    if (process.env.BENCH_KEEP !== '1') await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
