/**
 * The events drain: a backlog of outbox events (written straight into the outbox, as the flushes
 * of that many creates would have) drained by the event workers of this process to local
 * receivers on 127.0.0.1 that answer 200 at once, one of them optionally slow. Prints the
 * deliveries per second, the lag of each endpoint, and the plan of the claiming statement with
 * the backlog in place.
 *
 *   node -r ./test/support/register-ts.js bench/events-drain.ts
 *
 * Also the worker's CPU and the database backends' CPU per delivery, and how many updates of the
 * delivery rows were HOT (wrote no index entry).
 *
 * Settings: BENCH_EVENTS (20,000), BENCH_ENDPOINTS (1), BENCH_SLOW_MS (0: no slow endpoint; else the
 * last endpoint answers after this long), BENCH_EVENT_WORKERS (1: workers, each with its own pool,
 * as processes would have), DATABASE_URL (the local server), BENCH_KEEP=1 keeps the database.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { enableRowLevelSecurity, migrate, openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { createTenant } from '../src/services/provisioning';
import { eventSettings } from '../src/events/settings';
import { startEventWorker } from '../src/events/worker';
import { ormComposition } from '../src/orm-composition';
import { createBenchDatabase } from './database';
import { cpuOf } from './processes';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);
const WORKERS = Number(process.env.BENCH_EVENT_WORKERS ?? 1);

export interface Stats {
  hits: Record<string, number>;
  lags: Record<string, number[]>;
  arrivals: Record<string, number[]>;
  duplicates: string[];
}

/** The receiver process (events-receiver.ts); `slowPath` answers after BENCH_SLOW_MS. */
export async function startReceiver(slowPath: string) {
  const child = fork(path.join(__dirname, 'events-receiver'), [], {
    env: { ...process.env, BENCH_SLOW_PATH: slowPath },
    execArgv: __filename.endsWith('.ts')
      ? ['-r', path.join(__dirname, '../test/support/register-ts.js')]
      : [],
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (m: { url: string }) => resolve(m.url)),
  );
  return {
    url,
    reset: () => child.send('reset'),
    stats: () =>
      new Promise<Stats>((resolve) => {
        child.once('message', (m: Stats) => resolve(m));
        child.send('stats');
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/**
 * The CPU the database's backends use (from /proc, with PostgreSQL on this machine): sampled every
 * second, as backends come and go (autovacuum's among them); `used()` is the growth of each since
 * it was first seen, summed (a backend first seen mid-run counts from then; what one used between
 * its last sample and its exit is lost).
 */
function backendsCpu(pids: () => Promise<{ pid: number }[]>) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async () => {
    for (const { pid } of await pids()) {
      const cpu = cpuOf(pid);
      if (cpu === undefined) continue;
      if (!first.has(pid)) first.set(pid, cpu);
      last.set(pid, cpu);
    }
  };
  return {
    sample,
    used: () => [...last].reduce((total, [pid, cpu]) => total + cpu - (first.get(pid) ?? cpu), 0),
  };
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const db = await createBenchDatabase(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const orm = await openOrm({ composition: ormComposition, clientUrl: db.url, poolMax: 4 });
  const receiver = await startReceiver(`/hook${ENDPOINTS - 1}`);
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
    for (let i = 1; i < WORKERS; i++)
      orms.push(await openOrm({ composition: ormComposition, clientUrl: db.url, poolMax: 4 }));
    // The tenant's own creation wrote events too: every outbox row goes to every endpoint.
    const [{ n: events }] = await sql.execute<{ n: number }[]>('select count(*)::int as n from outbox_event');
    const expected = events * ENDPOINTS;
    const load0 = loadavg()[0];
    const started = Date.now();
    const workers = orms.map((o) => startEventWorker(o, createLogger('silent'), settings, undefined, true));
    const total = (stats: Stats) => Object.values(stats.hits).reduce((a, b) => a + b, 0);
    const timeline: string[] = [];
    let last = 0;
    let stats = await receiver.stats();
    const limitMs = Number(process.env.BENCH_DRAIN_LIMIT_S ?? 600) * 1000;
    const cpu = process.cpuUsage();
    const database = db.url.slice(db.url.lastIndexOf('/') + 1);
    const pg = backendsCpu(() =>
      sql.execute<{ pid: number }[]>(
        `select pid from pg_stat_activity where datname = ? and pid <> pg_backend_pid()`,
        [database],
      ),
    );
    await pg.sample();
    // With a slow endpoint, the drain is timed until every other endpoint has all its events.
    const timed = Array.from({ length: ENDPOINTS }, (_, i) => `/hook${i}`).filter(
      (p, i) => !(SLOW_MS > 0 && ENDPOINTS > 1 && i === ENDPOINTS - 1),
    );
    const waiting = (s: Stats) => timed.some((p) => (s.hits[p] ?? 0) < events);
    while (waiting(stats) && Date.now() - started < limitMs) {
      await new Promise((r) => setTimeout(r, 1000));
      await pg.sample();
      stats = await receiver.stats();
      timeline.push(String(total(stats) - last));
      last = total(stats);
    }
    const seconds = (Date.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await pg.sample();

    await Promise.all(workers.map((w) => w.stop()));
    // The backends report their counts within a second of going idle.
    await new Promise((r) => setTimeout(r, 1500));
    const [updates] = await sql.execute<{ updates: number; hot: number }[]>(
      `select n_tup_upd::int as updates, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'event_delivery'`,
    );
    for (const o of orms.slice(1)) await o.close(true);
    const done = total(stats);
    console.log(
      JSON.stringify(
        {
          events: EVENTS,
          endpoints: ENDPOINTS,
          slowMs: SLOW_MS,
          workers: WORKERS,
          delivered: done,
          duplicates: stats.duplicates,
          workerCpuSeconds: Math.round((used.user + used.system) / 1e4) / 100,
          workerCpuMsPerDelivery: Math.round((used.user + used.system) / 10 / Math.max(1, done)) / 100,
          postgresCpuSeconds: Math.round(pg.used() * 100) / 100,
          postgresCpuMsPerDelivery: Math.round((pg.used() * 100_000) / Math.max(1, done)) / 100,
          deliveryUpdates: updates,
          expected,
          seconds,
          perSecond: Math.round(done / seconds),
          timedEndpointsPerSecond: Math.round(timed.reduce((n, p) => n + (stats.hits[p] ?? 0), 0) / seconds),
          perSecondTimeline: timeline.join(','),
          loadAverage: { before: load0, after: loadavg()[0] },
          endpointsSeen: Object.entries(stats.hits).map(([at, n]) => ({
            path: at,
            delivered: n,
            lagP50Ms: percentile(stats.lags[at] ?? [], 50),
            lagP99Ms: percentile(stats.lags[at] ?? [], 99),
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

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
