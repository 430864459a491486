/**
 * The subscription fan-out (`BENCH_FANOUT_SCENARIO=1 npm run bench`): BENCH_SOCKETS (1,000)
 * WebSockets of one tenant subscribed to `recordChanged` for created concepts, and
 * BENCH_OTHER_SOCKETS (100) of a second tenant subscribed alike, on the service as deployed,
 * while clients create concepts in the first tenant as fast as the service takes them for
 * BENCH_FANOUT_SECONDS (30). The subscribers run in a process of their own
 * (events-fanout-clients.ts). Reports the creates per second; per group of sockets, the messages
 * received against those expected (every socket of the first tenant each create once, the second
 * tenant's none), duplicates, and the lag from each create's acknowledgement to each socket's
 * receipt at p50 and p99 (during the load, in all, and each socket's p99); how long the last
 * receipts took after the load; and the service's CPU.
 *
 *   npm run build && node -r ./test/support/register-ts.js bench/events-fanout.ts
 *
 * Settings: BENCH_SOCKETS, BENCH_OTHER_SOCKETS, BENCH_FANOUT_SECONDS, BENCH_CONNECTIONS (8),
 * BENCH_FANOUT_ROUNDS (1), BENCH_COMPARE_DIR (another built checkout's service, in turns),
 * BENCH_PROFILE_DIR (a CPU profile of the service), DATABASE_URL (the local server),
 * BENCH_KEEP=1 keeps the database.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { signToken } from '../src/auth/jwt';
import { createTenant } from '../src/services/provisioning';
import { scenarioTenant } from './scenario-tenant';
import { driveCreates } from './events-load';
import { startService } from './processes';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const OTHER_SOCKETS = Number(process.env.BENCH_OTHER_SOCKETS ?? 100);
const SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const QUERY = `subscription { recordChanged(types: ["concept.created"]) {
  id type tenantId occurredAt actor { userId email } resource { type id } data } }`;

/** The figures of one group of sockets (events-fanout-clients.ts). */
interface GroupStats {
  sockets: number;
  expectedPerSocket: number;
  expected: number;
  received: number;
  fewestPerSocket: number;
  mostPerSocket: number;
  missing: number;
  duplicates: number;
  foreign: number;
  unacknowledged: number;
  lagFromAckMs: {
    duringLoad: { p50: number; p99: number };
    all: { p50: number; p99: number };
    socketP99: { fewest: number; median: number; most: number };
  };
  lagFromOccurredAtMs: { p50: number; p99: number };
}

async function startClients(wsUrl: string, groups: { token: string; tenantId: string; sockets: number }[]) {
  const child = fork(path.join(__dirname, 'events-fanout-clients'), [], {
    env: {
      ...process.env,
      BENCH_WS_URL: wsUrl,
      BENCH_QUERY: QUERY,
      BENCH_GROUPS: JSON.stringify(groups),
    },
    execArgv: __filename.endsWith('.ts')
      ? ['-r', path.join(__dirname, '../test/support/register-ts.js')]
      : [],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the subscribers exited with ${code}`)));
  });
  const ask = <T>(message: object) =>
    new Promise<T>((resolve) => {
      child.once('message', (m: T) => resolve(m));
      child.send(message);
    });
  return {
    receipts: async () => (await ask<{ receipts: number }>({ kind: 'count' })).receipts,
    stats: (acks: Record<string, number>, loadEnded: number) =>
      ask<GroupStats[]>({ kind: 'stats', acks, loadEnded }),
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.send({ kind: 'stop' });
      }),
  };
}

/** One run of the scenario on a database of its own, with this checkout's service or `root`'s. */
async function fanoutRun(log: (line: string) => void, root?: string) {
  const { db, orm, tenant: mine, secret, token, close } = await scenarioTenant('Fanout');
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const other = await createTenant(orm.em.fork(), {
      name: 'Fanout other',
      adminEmail: 'admin@fanout-other.test',
    });
    const otherToken = signToken(
      { secret },
      { sub: other.admin.id, email: other.admin.email, tenantId: other.tenant.id },
      24 * 3600,
    );
    const service = await startService({
      databaseUrl: db.url,
      jwtSecret: secret,
      poolSize: 10,
      logLevel: 'warn',
      profileDir: process.env.BENCH_PROFILE_DIR,
      root,
    });
    stops.push(() => service.stop());
    const clients = await startClients(`${service.base.replace(/^http/, 'ws')}/graphql`, [
      { token, tenantId: mine.id, sockets: SOCKETS },
      { token: otherToken, tenantId: other.tenant.id, sockets: OTHER_SOCKETS },
    ]);
    stops.push(() => clients.close());
    const load0 = loadavg().map((x) => Math.round(x * 10) / 10);
    const cpu0 = service.cpu() ?? 0;
    // When each create was acknowledged, by the record's id.
    const acks: Record<string, number> = {};
    const load = await driveCreates(service.base, token, CONNECTIONS, SECONDS, 'Fan', (status, body) => {
      if (status === 201) acks[(JSON.parse(body) as { id: string }).id] = Date.now();
    });
    const loadEnded = Date.now();
    const cpuDuringLoad = (service.cpu() ?? 0) - cpu0;
    const creates = Object.keys(acks).length;
    const expected = creates * SOCKETS;
    let received = await clients.receipts();
    const receivedDuringLoad = received;
    // Until every acknowledged create has reached every socket, and then until nothing more
    // comes for a second (the creates the load's end cut off, anything that should not come).
    let lastReceipt = Date.now();
    while (Date.now() - loadEnded < 300_000 && (received < expected || Date.now() - lastReceipt < 1000)) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await clients.receipts();
      if (now !== received) lastReceipt = Date.now();
      received = now;
    }
    const lastReceiptsAfterLoadSeconds = (lastReceipt - loadEnded) / 1000;
    const cpu = (service.cpu() ?? 0) - cpu0;
    const [tenant, otherTenant] = await clients.stats(acks, loadEnded);
    const result = {
      service: root ?? 'this checkout',
      sockets: SOCKETS,
      otherTenantSockets: OTHER_SOCKETS,
      creates,
      createFailures: load.failures,
      createsPerSecond: Math.round(creates / load.seconds),
      createP50Ms: load.p50,
      receivedDuringLoad,
      lastReceiptsAfterLoadSeconds,
      tenant,
      otherTenant,
      everySocketEveryEventOnce:
        tenant.missing === 0 && tenant.duplicates === 0 && tenant.foreign === 0 && otherTenant.received === 0,
      serviceCpuSeconds: {
        duringLoad: Math.round(cpuDuringLoad * 100) / 100,
        all: Math.round(cpu * 100) / 100,
      },
      serviceCpuMsPerReceipt: Math.round((cpu * 1000 * 1000) / Math.max(1, tenant.received)) / 1000,
      serviceCpuMsPerCreate: Math.round((cpu * 1000 * 1000) / Math.max(1, creates)) / 1000,
      loadAverage: { before: load0, after: loadavg().map((x) => Math.round(x * 10) / 10) },
      node: process.version,
    };
    log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await close();
  }
}

/**
 * BENCH_FANOUT_ROUNDS (1) runs; with BENCH_COMPARE_DIR (a built checkout), each round runs its
 * service too, the two in turns, first one then the other.
 */
export async function fanoutScenario(log: (line: string) => void = console.log) {
  const rounds = Number(process.env.BENCH_FANOUT_ROUNDS ?? 1);
  const compared = process.env.BENCH_COMPARE_DIR || undefined;
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const order = compared ? (round % 2 === 0 ? [undefined, compared] : [compared, undefined]) : [undefined];
    for (const root of order) results.push(await fanoutRun(log, root));
  }
  return results;
}

if (require.main === module)
  fanoutScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
