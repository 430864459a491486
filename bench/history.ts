/**
 * The history scenario of `npm run bench` (BENCH_HISTORY_SCENARIO=1): does a record's cost grow
 * with its past? The service as deployed (the built `dist`, its own process, a fresh database)
 * updates one feature HISTORY_UPDATES times (10,000) through GraphQL, one request at a time, and
 * compares the latency of the first HISTORY_WINDOW (200) updates with that of the last; then it
 * finds that feature and a fresh one by id (GET /hr/features/find/{id}, with their `events`),
 * alternately, HISTORY_FINDS (400) times each, and compares the two. Reports medians and p90s,
 * and the ratios the docs state the targets for (docs/history.md, "What it costs").
 */
import { loadavg } from 'node:os';
import { scenarioTenant } from './scenario-tenant';
import { percentile } from './events-drain';
import { startService } from './processes';

const UPDATES = Number(process.env.HISTORY_UPDATES ?? 10_000);
const WINDOW = Math.min(Number(process.env.HISTORY_WINDOW ?? 200), Math.floor(UPDATES / 2));
const FINDS = Number(process.env.HISTORY_FINDS ?? 400);

export interface HistoryResult {
  updates: number;
  firstUpdates: { p50: number; p90: number };
  lastUpdates: { p50: number; p90: number };
  updateRatio: number;
  /** The first update of new features against the busy one's next, taken in turn. */
  interleaved: {
    firstOfNew: { p50: number; p90: number };
    nextOfBusy: { p50: number; p90: number };
    ratio: number;
  };
  /** A find of a feature with exactly as many entries as `events` shows (100). */
  fullFind: { p50: number; p90: number };
  longToFullRatio: number;
  freshFind: { p50: number; p90: number };
  longFind: { p50: number; p90: number };
  findRatio: number;
  eventsShown: number;
  loadAverage: number[];
}

const summary = (ms: number[]) => ({ p50: percentile(ms, 50), p90: percentile(ms, 90) });

export async function historyScenario(log: (line: string) => void = console.log): Promise<HistoryResult> {
  const { db, secret, token, close } = await scenarioTenant('History');
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const service = await startService({
      databaseUrl: db.url,
      jwtSecret: secret,
      poolSize: 4,
      logLevel: 'warn',
    });
    stops.push(() => service.stop());
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const timed = async (path: string, init: RequestInit = {}): Promise<[number, any]> => {
      const start = performance.now();
      const res = await fetch(`${service.base}${path}`, { ...init, headers });
      const body = (await res.json()) as any;
      const ms = performance.now() - start;
      if (res.status >= 300 || body?.errors)
        throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return [ms, body];
    };
    const create = async (name: string) =>
      (await timed('/api/v1/hr/features', { method: 'POST', body: JSON.stringify({ name }) }))[1]
        .id as string;
    const busy = await create('Worked all year');
    const update = (i: number) =>
      timed('/graphql', {
        method: 'POST',
        body: JSON.stringify({
          query: `mutation($id: ID!, $p: Int!) { updateFeature(id: $id, input: { estimatedPoints: $p }) { id version } }`,
          variables: { id: busy, p: i },
        }),
      });

    log(`History: ${UPDATES} updates of one feature, one at a time`);
    const first: number[] = [];
    const last: number[] = [];
    for (let i = 1; i <= UPDATES; i++) {
      const [ms] = await update(i);
      if (i <= WINDOW) first.push(ms);
      else if (i > UPDATES - WINDOW) last.push(ms);
      if (i % 2000 === 0) log(`  ${i} updates`);
    }
    // The same comparison interleaved, so that the box's load drifting over the run weighs on
    // both alike: the first update of a new feature, then the next update of the busy one.
    const firstOfNew: number[] = [];
    const nextOfBusy: number[] = [];
    for (let i = 0; i < WINDOW; i++) {
      const other = await create(`New ${i}`);
      firstOfNew.push(
        (
          await timed('/graphql', {
            method: 'POST',
            body: JSON.stringify({
              query: `mutation($id: ID!) { updateFeature(id: $id, input: { estimatedPoints: 1 }) { id version } }`,
              variables: { id: other },
            }),
          })
        )[0],
      );
      nextOfBusy.push((await update(UPDATES + 1 + i))[0]);
    }
    const fresh = await create('Fresh');
    // A feature with as many entries as `events` shows: beyond it, more history should cost nothing.
    const full = await create('Full');
    for (let i = 1; i < 100; i++)
      await timed('/graphql', {
        method: 'POST',
        body: JSON.stringify({
          query: `mutation($id: ID!, $p: Int!) { updateFeature(id: $id, input: { estimatedPoints: $p }) { id } }`,
          variables: { id: full, p: i },
        }),
      });
    const freshMs: number[] = [];
    const fullMs: number[] = [];
    const longMs: number[] = [];
    let eventsShown = 0;
    for (let i = 0; i < FINDS; i++) {
      const [a] = await timed(`/api/v1/hr/features/find/${fresh}`);
      const [c] = await timed(`/api/v1/hr/features/find/${full}`);
      const [b, body] = await timed(`/api/v1/hr/features/find/${busy}`);
      freshMs.push(a);
      fullMs.push(c);
      longMs.push(b);
      eventsShown = body.events.length;
    }
    const result: HistoryResult = {
      updates: UPDATES,
      firstUpdates: summary(first),
      lastUpdates: summary(last),
      updateRatio: percentile(last, 50) / percentile(first, 50),
      interleaved: {
        firstOfNew: summary(firstOfNew),
        nextOfBusy: summary(nextOfBusy),
        ratio: percentile(nextOfBusy, 50) / percentile(firstOfNew, 50),
      },
      fullFind: summary(fullMs),
      longToFullRatio: percentile(longMs, 50) / percentile(fullMs, 50),
      freshFind: summary(freshMs),
      longFind: summary(longMs),
      findRatio: percentile(longMs, 50) / percentile(freshMs, 50),
      eventsShown,
      loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
    };
    const f = (s: { p50: number; p90: number }) => `p50 ${s.p50.toFixed(2)} ms, p90 ${s.p90.toFixed(2)} ms`;
    log(`  first ${WINDOW} updates: ${f(result.firstUpdates)}`);
    log(`  last ${WINDOW} updates:  ${f(result.lastUpdates)}`);
    log(`  update ratio (last / first, p50): ${result.updateRatio.toFixed(3)}`);
    log(`  in turn, first update of a new feature: ${f(result.interleaved.firstOfNew)}`);
    log(`  in turn, next update of the busy one:   ${f(result.interleaved.nextOfBusy)}`);
    log(`  update ratio in turn (busy / new, p50): ${result.interleaved.ratio.toFixed(3)}`);
    log(`  find of a fresh feature:            ${f(result.freshFind)}`);
    log(`  find of a feature with 100 entries: ${f(result.fullFind)}`);
    log(
      `  find of the feature with ${UPDATES + 1} entries: ${f(result.longFind)} (${eventsShown} events shown)`,
    );
    log(`  find ratio (long / fresh, p50): ${result.findRatio.toFixed(3)}`);
    log(`  find ratio (long / 100 entries, p50): ${result.longToFullRatio.toFixed(3)}`);
    log(`  load average: ${result.loadAverage.join(' / ')}${db.embedded ? ' (embedded database)' : ''}`);
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await close();
  }
}

if (require.main === module) {
  historyScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
