/**
 * The subscription fan-out: BENCH_SOCKETS (1,000) WebSockets subscribed to `recordChanged` for
 * created concepts, on the service as deployed, while clients create concepts as fast as the
 * service takes them for BENCH_FANOUT_SECONDS (30). The subscribers run in a process of their own
 * (events-fanout-clients.ts). Reports the creates per second, the lag from write to receipt
 * (receipt minus the event's occurredAt) during the load at p50 and p99, whether every socket got
 * every event once, how long the last receipts took after the load, and the service's CPU.
 *
 *   npm run build && node -r ./test/support/register-ts.js bench/events-fanout.ts
 *
 * Settings: BENCH_SOCKETS, BENCH_FANOUT_SECONDS, BENCH_CONNECTIONS (8), BENCH_PROFILE_DIR (a CPU
 * profile of the service), DATABASE_URL (the local server), BENCH_KEEP=1 keeps the database.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { scenarioTenant } from './scenario-tenant';
import { driveCreates } from './events-load';
import { percentile } from './events-drain';
import { startService } from './processes';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const QUERY = `subscription { recordChanged(types: ["concept.created"]) {
  id type tenantId occurredAt actor { userId email } resource { type id } data } }`;

interface ClientStats {
  receipts: number;
  duplicates: number;
  lags: number[];
  fewest: number;
  most: number;
}

async function startClients(wsUrl: string, token: string) {
  const child = fork(path.join(__dirname, 'events-fanout-clients'), [], {
    env: {
      ...process.env,
      BENCH_WS_URL: wsUrl,
      BENCH_TOKEN: token,
      BENCH_QUERY: QUERY,
      BENCH_SOCKETS: String(SOCKETS),
    },
    execArgv: __filename.endsWith('.ts')
      ? ['-r', path.join(__dirname, '../test/support/register-ts.js')]
      : [],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the subscribers exited with ${code}`)));
  });
  return {
    reset: () => child.send('reset'),
    stats: () =>
      new Promise<ClientStats>((resolve) => {
        child.once('message', (m: ClientStats) => resolve(m));
        child.send('stats');
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

export async function fanoutScenario(log: (line: string) => void = console.log) {
  const { db, secret, token, close } = await scenarioTenant('Fanout');
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const service = await startService({
      databaseUrl: db.url,
      jwtSecret: secret,
      poolSize: 10,
      logLevel: 'warn',
      profileDir: process.env.BENCH_PROFILE_DIR,
    });
    stops.push(() => service.stop());
    const clients = await startClients(`${service.base.replace(/^http/, 'ws')}/graphql`, token);
    stops.push(() => clients.close());
    const load0 = loadavg()[0];
    const cpu0 = service.cpu() ?? 0;
    const load = await driveCreates(service.base, token, CONNECTIONS, SECONDS, 'Fan');
    const loadEnded = Date.now();
    const during = await clients.stats();
    const creates = load.requests - load.failures;
    const expected = creates * SOCKETS;
    let after = during;
    while (after.receipts < expected && Date.now() - loadEnded < 300_000) {
      await new Promise((r) => setTimeout(r, 500));
      after = await clients.stats();
    }
    const cpu = (service.cpu() ?? 0) - cpu0;
    const result = {
      sockets: SOCKETS,
      creates,
      createsPerSecond: Math.round(creates / load.seconds),
      expectedReceipts: expected,
      receivedDuringLoad: during.receipts,
      received: after.receipts,
      duplicates: after.duplicates,
      fewestPerSocket: after.fewest,
      mostPerSocket: after.most,
      lagDuringLoadMs: { p50: percentile(during.lags, 50), p99: percentile(during.lags, 99) },
      lagAllMs: { p50: percentile(after.lags, 50), p99: percentile(after.lags, 99) },
      lastReceiptsAfterLoadSeconds: (Date.now() - loadEnded) / 1000,
      serviceCpuSeconds: cpu,
      serviceCpuMsPerReceipt: Math.round((cpu * 1000 * 1000) / Math.max(1, after.receipts)) / 1000,
      loadAverage: { before: load0, after: loadavg()[0] },
    };
    log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await close();
  }
}

if (require.main === module)
  fanoutScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
