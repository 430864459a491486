/**
 * The events scenario of `npm run bench` (BENCH_EVENTS_SCENARIO=1): the service as deployed
 * creates concepts as fast as it can for BENCH_EVENTS_SECONDS (60) with webhooks registered through
 * its API, once with one endpoint and once with ten (the tenth answering after BENCH_SLOW_MS, 1000),
 * all to receivers in a process of their own on 127.0.0.1 (BENCH_EVENTS_ENDPOINTS: 1,10). Reports the creates per second, the
 * delivery lag (arrival minus the event's occurredAt) during the load at p50 and p99 per endpoint,
 * and how long the backlog left at the end of the load took to drain.
 *
 * The clients act as an integrator's would: a create refused with 429 (the bound on writes while
 * the tenant's events are behind, docs/events.md) is sent again after its Retry-After, and counted.
 * BENCH_COMPARE_DIR (another built checkout): each round runs that checkout's service too, the two
 * in turns, each on a database of its own.
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { scenarioTenant } from './scenario-tenant';
import { drive } from './drive';
import { percentile, startReceiver, type Stats } from './events-drain';
import { startService } from './processes';

const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 60);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const SLOW_PATH = '/hook9';

interface Phase {
  service: string;
  endpoints: number;
  creates: number;
  createsPerSecond: number;
  /** Creates answered 429 (each sent again after its Retry-After). */
  refused: number;
  /** The service's own count of writes its bound held, and refused (none on a build without it). */
  bound: { held: number; refused: number };
  /** Webhook attempts during the load that took at most so many seconds (cumulative, by bucket). */
  attemptsWithin: Record<string, number>;
  /** Over the timed endpoints (all but the slow one) together: lag during the load (ms). */
  timedLag: { p50: number; p99: number };
  /** Before the load (1, 5, 15 min), then after it. */
  loadAverage: number[];
  /** Per endpoint path: delivered during the load, and the lag then (ms). */
  duringLoad: { path: string; delivered: number; p50: number; p99: number }[];
  /** Rounds longer than a minute: per minute of the load, every endpoint's lag then (ms). */
  perMinute?: { minute: number; path: string; delivered: number; p50: number; p99: number }[];
  /** Seconds after the load until every endpoint but the slow one had every event. */
  drainSeconds: number;
  drainedPerSecond: number;
}

/** The events scenarios' load: concepts created as fast as `connections` clients go, for `seconds`. */
export function driveCreates(
  base: string,
  token: string,
  connections: number,
  seconds: number,
  prefix: string,
  onResponse?: (status: number, body: string) => void,
) {
  let n = 0;
  return drive({
    base,
    token,
    connections,
    duration: seconds,
    onResponse,
    request: () => ({
      method: 'POST',
      path: '/api/v1/concepts',
      body: JSON.stringify({ name: `${prefix} ${n++}` }),
    }),
  });
}

/**
 * Creates on `connections` kept-alive connections, each sending its next as soon as the last is
 * answered, for `seconds`; a 429 is sent again after its Retry-After (the client sleeps meanwhile),
 * as a client of the API would. Node's http client rather than autocannon, which cannot wait.
 */
export async function createsWithRetries(
  base: string,
  token: string,
  connections: number,
  seconds: number,
  prefix: string,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL('/api/v1/concepts', base);
  const until = Date.now() + seconds * 1000;
  let n = 0;
  let created = 0;
  let refused = 0;
  let failures = 0;
  const post = (body: string) =>
    new Promise<{ status: number; retryAfter: number }>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 1) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const body = JSON.stringify({ name: `${prefix} ${n++}` });
        for (;;) {
          const answer = await post(body).catch(() => ({ status: 0, retryAfter: 1 }));
          if (answer.status === 201) created++;
          else if (answer.status === 429) {
            refused++;
            const wait = Math.min(answer.retryAfter * 1000, until - Date.now());
            if (wait <= 0) break;
            await new Promise((r) => setTimeout(r, wait));
            continue;
          } else failures++;
          break;
        }
      }
    }),
  );
  agent.destroy();
  return { created, refused, failures, seconds: (performance.now() - started) / 1000 };
}

/**
 * From the service's metrics: its count of writes held and refused by its bound (0 where it has
 * none), and how many webhook attempts took at most each bucket's seconds (cumulative).
 */
async function serviceCounts(base: string) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  const buckets = ['0.1', '0.25', '0.5', '1', '+Inf'];
  return {
    held: value('event_lag_bound_writes_total\\{outcome="held"\\}'),
    refused: value('event_lag_bound_writes_total\\{outcome="refused"\\}'),
    attemptsWithin: Object.fromEntries(
      buckets.map((le) => [
        le,
        value(`event_delivery_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",channel="webhook"\\}`),
      ]),
    ),
  };
}

/** Each endpoint's lag per minute of the load, by arrival: whether it stays flat over a long round. */
function perMinute(stats: Stats, paths: string[], from: number, to: number) {
  const minutes = Math.ceil((to - from) / 60_000);
  return Array.from({ length: minutes }, (_, minute) =>
    paths.map((path) => {
      const arrived = stats.arrivals[path] ?? [];
      const lags = (stats.lags[path] ?? []).filter(
        (_, i) => Math.floor((arrived[i] - from) / 60_000) === minute,
      );
      return { minute, path, delivered: lags.length, p50: percentile(lags, 50), p99: percentile(lags, 99) };
    }),
  ).flat();
}

/** One run (every endpoint count) on a database of its own, with this checkout's service or `root`'s. */
async function eventsRun(log: (line: string) => void, root?: string): Promise<Phase[]> {
  const { db, secret, token, close } = await scenarioTenant('Events');
  process.env.BENCH_SLOW_MS = String(SLOW_MS);
  const receiver = await startReceiver(SLOW_PATH);
  const stops: (() => Promise<unknown>)[] = [];
  try {
    // The receivers are on 127.0.0.1, which only this setting lets a webhook reach.
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const service = await startService({
      root,
      databaseUrl: db.url,
      jwtSecret: secret,
      poolSize: 10,
      logLevel: 'warn',
    });
    stops.push(() => service.stop());
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? undefined : ((await res.json()) as { id: string });
    };
    const total = (s: Stats, paths: string[]) => paths.reduce((n, p) => n + (s.hits[p] ?? 0), 0);
    const phases: Phase[] = [];
    const rounds = (process.env.BENCH_EVENTS_ENDPOINTS ?? '1,10').split(',').map(Number);
    for (const endpoints of rounds) {
      const paths = Array.from({ length: endpoints }, (_, i) => `/hook${i}`);
      const timed = paths.filter((p) => !(endpoints > 1 && p === SLOW_PATH));
      const hooks: string[] = [];
      for (const p of paths)
        hooks.push(
          (await api('POST', '/webhooks', { url: receiver.url + p, events: ['concept.created'] }))!.id,
        );
      const before = await receiver.stats();
      receiver.reset();
      const countsBefore = await serviceCounts(service.base);
      const loadBefore = loadavg().map((x) => Math.round(x * 10) / 10);
      const loadStarted = Date.now();
      const load = await createsWithRetries(service.base, token, CONNECTIONS, SECONDS, 'Load');
      const loadEnded = Date.now();
      const during = await receiver.stats();
      const countsAfter = await serviceCounts(service.base);
      const creates = load.created;
      if (creates === 0) throw new Error(`no create succeeded (${load.failures} failures)`);
      const expected = (p: string) => (before.hits[p] ?? 0) + creates;
      for (;;) {
        const now = await receiver.stats();
        if (timed.every((p) => (now.hits[p] ?? 0) >= expected(p)) || Date.now() - loadEnded > 600_000) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const drainSeconds = (Date.now() - loadEnded) / 1000;
      const after = await receiver.stats();
      const phase: Phase = {
        service: root ?? 'this checkout',
        endpoints,
        creates,
        createsPerSecond: Math.round(creates / load.seconds),
        refused: load.refused,
        bound: {
          held: countsAfter.held - countsBefore.held,
          refused: countsAfter.refused - countsBefore.refused,
        },
        attemptsWithin: Object.fromEntries(
          Object.entries(countsAfter.attemptsWithin).map(([le, n]) => [
            le,
            n - countsBefore.attemptsWithin[le],
          ]),
        ),
        timedLag: {
          p50: percentile(
            timed.flatMap((p) => during.lags[p] ?? []),
            50,
          ),
          p99: percentile(
            timed.flatMap((p) => during.lags[p] ?? []),
            99,
          ),
        },
        loadAverage: [...loadBefore, ...loadavg().map((x) => Math.round(x * 10) / 10)],
        duringLoad: paths.map((p) => ({
          path: p,
          delivered: (during.hits[p] ?? 0) - (before.hits[p] ?? 0),
          p50: percentile(during.lags[p] ?? [], 50),
          p99: percentile(during.lags[p] ?? [], 99),
        })),
        perMinute: SECONDS > 60 ? perMinute(during, paths, loadStarted, loadEnded) : undefined,
        drainSeconds,
        drainedPerSecond: Math.round(
          (total(after, timed) - total(during, timed)) / Math.max(drainSeconds, 0.001),
        ),
      };
      phases.push(phase);
      log(JSON.stringify(phase));
      for (const id of hooks) await api('DELETE', `/webhooks/${id}`);
    }
    return phases;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await receiver.close();
    await close();
  }
}

/**
 * BENCH_EVENTS_ROUNDS (1) runs; with BENCH_COMPARE_DIR (a built checkout), each round runs its
 * service too, the two in turns, first one then the other.
 */
export async function eventsScenario(log: (line: string) => void = console.log): Promise<Phase[]> {
  const rounds = Number(process.env.BENCH_EVENTS_ROUNDS ?? 1);
  const compared = process.env.BENCH_COMPARE_DIR || undefined;
  const phases: Phase[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = compared ? (round % 2 === 0 ? [compared, undefined] : [undefined, compared]) : [undefined];
    for (const root of order) phases.push(...(await eventsRun(log, root)));
  }
  return phases;
}

if (require.main === module)
  eventsScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
