/**
 * The invoicing scenario of `npm run bench` (BENCH_INVOICING_SCENARIO=1): how fast one tenant
 * makes invoices, whose gapless number is taken under a per-tenant lock (services/sequences.ts).
 * The service as deployed (the built `dist`, its own process, a fresh database, files and mail
 * under a temporary DATA_DIR: mail goes to its `.eml` outbox):
 *
 * 1. creates: POST /api/v1/invoices of ONE tenant for INVOICING_SECONDS (15) with 1 client, then
 *    8 clients, each client sending its next request when the last one answered; twice, in turn,
 *    so the box's other load weighs on both alike. Between phases the PDF queue is let drain, and
 *    the time that took is reported (the PDFs are made after each create commits), with the rate
 *    of invoices complete with their PDF it makes (the creates over the phase and the drain). Each
 *    phase reports the whole machine's busy CPU per create too: its cores over that bound the rate any
 *    number of clients can reach, so the 8-client ratio is shown beside that ceiling. First against
 *    one process, then against the cluster as deployed here: INVOICING_WORKERS processes (the
 *    available cores by default; 1 leaves the cluster out) sharing their rate limits in the Redis
 *    of REDIS_URL (127.0.0.1:6379 by default). BENCH_COMPARE_DIR runs that checkout's build instead;
 *    BENCH_PROFILE_DIR takes a CPU profile of the one process (each thread's a file of its own),
 *    with the creates' window in window.json for `node dist/bench/profile.js`.
 * 2. a month's run (against the one process): INVOICING_AGREEMENTS (1,000) invoices with a recurring agreement (autoSend,
 *    monthly, next date today), then `invoices.recurring` run now for the tenant, as `bms jobs:run`
 *    runs it, timed until every generated invoice is SENT; then until their mails are delivered
 *    and their PDFs made by the service.
 */
import fs from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { appScheduled } from '../src/app-modules';
import { JobScheduler } from '../src/jobs/scheduler';
import { createLogger } from '../src/logger';
import { percentile } from './events-drain';
import { startService, type Server } from './processes';
import { monotonicMicros } from './profile';
import { scenarioTenant } from './scenario-tenant';

const SECONDS = Number(process.env.INVOICING_SECONDS ?? 15);
const AGREEMENTS = Number(process.env.INVOICING_AGREEMENTS ?? 1000);
const CLIENTS = [1, 8];
const ROUNDS = 2;
const WORKERS = Number(process.env.INVOICING_WORKERS ?? availableParallelism());
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const COMPARE_DIR = process.env.BENCH_COMPARE_DIR ? path.resolve(process.env.BENCH_COMPARE_DIR) : undefined;
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ? path.resolve(process.env.BENCH_PROFILE_DIR) : undefined;

export interface CreatePhase {
  clients: number;
  rps: number;
  p50: number;
  /** How long the PDFs the phase queued took to be made after it ended (ms). */
  pdfDrainMs: number;
  /** The service process's CPU during the phase, in cores (1 = one core all the time). */
  serviceCores: number;
  /** Its CPU per create, rendering of the PDFs made meanwhile included (ms). */
  cpuMsPerCreate: number;
  /**
   * The whole machine's busy CPU per create (ms): the service, PostgreSQL, this client and
   * whatever else runs. Its cores over it is the most creates a second the machine could make.
   */
  machineMsPerCreate: number;
  /**
   * Of the service's database sessions sampled during the phase: the share waiting on a lock (the
   * number's row lock), running a statement, and idle within a transaction (the service working).
   */
  sessions: { lock: number; active: number; idleInTransaction: number };
}

/** The create rounds against one deployment: one process, or a cluster of `workers`. */
export interface CreateRounds {
  workers: number;
  phases: CreatePhase[];
  /** The median 8-client rate over the median 1-client rate. */
  ratio: number;
  /**
   * The most that ratio can be on this machine: all its cores busy at the 8-client phases' CPU
   * per create, over the 1-client rate.
   */
  ceiling: number;
}

export interface InvoicingResult {
  rounds: CreateRounds[];
  recurring: { generated: number; runMs: number; sentMs: number; mailedMs: number; pdfsMs: number };
  loadAverage: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The machine's busy CPU time so far, all cores (ms). */
const machineBusyMs = () => cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0);

export async function invoicingScenario(log: (line: string) => void = console.log): Promise<InvoicingResult> {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'bms-bench-invoicing-'));
  const { db, orm, tenant, secret, token, close } = await scenarioTenant('Invoicing');
  const stops: (() => Promise<unknown>)[] = [];
  const owner = orm.em.getConnection();
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await owner.execute<{ n: number }[]>(sql, params))[0].n);
  try {
    process.env.DATA_DIR = dataDir;
    const start = (workers: number) =>
      startService({
        databaseUrl: db.url,
        jwtSecret: secret,
        poolSize: 10,
        logLevel: 'warn',
        workers,
        ...(workers > 1 ? { redisUrl: REDIS_URL } : {}),
        ...(COMPARE_DIR ? { root: COMPARE_DIR } : {}),
        ...(PROFILE_DIR && workers === 1 ? { profileDir: PROFILE_DIR } : {}),
      });
    /** The service the requests go to: the one process, then the cluster. */
    let service: Server = await start(1);
    const single = service;
    stops.push(() => single.stop());
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (p: string, body: object) => {
      const res = await fetch(`${service.base}/api/v1${p}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const customer = await post('/customers', { name: 'Bench Customer BV', email: 'billing@customer.test' });
    const invoice = (extra: object = {}) => ({
      clientId: customer.id,
      contactEmail: 'billing@customer.test',
      rows: [
        { description: 'Consulting', quantity: 8, unitPrice: 95, taxRate: 21 },
        { description: 'Travel', quantity: 1, unitPrice: 42.5, taxRate: 9 },
      ],
      ...extra,
    });
    /** Waits until no PDF is due; answers how long that took. */
    const pdfsDrained = async (): Promise<number> => {
      const start = performance.now();
      while ((await count(`select count(*)::int as n from invoice_pdf_due`)) > 0) await sleep(100);
      return performance.now() - start;
    };
    /** The service's sessions, sampled every 20 ms until `done` is true. */
    const sampleSessions = async (done: () => boolean) => {
      const seen = { lock: 0, active: 0, idleInTransaction: 0, all: 0 };
      while (!done()) {
        const rows = await owner.execute<{ state: string; wait: string | null }[]>(
          `select state, wait_event_type as wait from pg_stat_activity
           where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
             and state <> 'idle'`,
        );
        for (const r of rows) {
          seen.all++;
          if (r.wait === 'Lock') seen.lock++;
          else if (r.state === 'active') seen.active++;
          else if (r.state.startsWith('idle in transaction')) seen.idleInTransaction++;
        }
        await sleep(20);
      }
      const share = (n: number) => (seen.all ? n / seen.all : 0);
      return {
        lock: share(seen.lock),
        active: share(seen.active),
        idleInTransaction: share(seen.idleInTransaction),
      };
    };
    /** `clients` clients creating invoices for `ms`, each waiting for its last answer. */
    const creates = async (clients: number, ms: number) => {
      const latencies: number[] = [];
      const end = performance.now() + ms;
      const cpu0 = service.cpu() ?? 0;
      const busy0 = machineBusyMs();
      let finished = false;
      const sampling = sampleSessions(() => finished);
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < end) {
            const start = performance.now();
            await post('/invoices', invoice());
            latencies.push(performance.now() - start);
          }
        }),
      );
      finished = true;
      const sessions = await sampling;
      const cpuS = (service.cpu() ?? 0) - cpu0;
      const busyMs = machineBusyMs() - busy0;
      return {
        rps: latencies.length / (ms / 1000),
        p50: percentile(latencies, 50),
        serviceCores: cpuS / (ms / 1000),
        cpuMsPerCreate: (cpuS * 1000) / latencies.length,
        machineMsPerCreate: busyMs / latencies.length,
        sessions,
      };
    };

    const createRounds = async (workers: number): Promise<CreateRounds> => {
      log(
        `Invoicing: creates of one tenant for ${SECONDS} s with ${CLIENTS.join(' and ')} clients, ${ROUNDS} rounds, ${workers === 1 ? 'one process' : `${workers} processes (WEB_CONCURRENCY, rate limits in Redis)`}${COMPARE_DIR ? ` of ${COMPARE_DIR}` : ''}`,
      );
      await creates(4, 3000); // warm-up
      await pdfsDrained();
      const phases: CreatePhase[] = [];
      for (let round = 0; round < ROUNDS; round++)
        for (const clients of CLIENTS) {
          const phase = await creates(clients, SECONDS * 1000);
          const pdfDrainMs = await pdfsDrained();
          phases.push({ clients, ...phase, pdfDrainMs });
          const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
          log(
            `  ${clients} client(s): ${phase.rps.toFixed(1)} creates/s, p50 ${phase.p50.toFixed(1)} ms; service ${phase.serviceCores.toFixed(2)} cores, ${phase.cpuMsPerCreate.toFixed(1)} ms CPU/create (machine ${phase.machineMsPerCreate.toFixed(1)}); sessions: ${pct(phase.sessions.lock)} waiting on a lock, ${pct(phase.sessions.active)} in a statement, ${pct(phase.sessions.idleInTransaction)} idle in transaction; PDFs all made ${(pdfDrainMs / 1000).toFixed(1)} s after, so ${((phase.rps * SECONDS) / (SECONDS + pdfDrainMs / 1000)).toFixed(1)} invoices/s with their PDF; load ${loadavg()[0].toFixed(2)}`,
          );
        }
      const median = (xs: number[]) => percentile(xs, 50);
      const rpsOf = (c: number) => median(phases.filter((p) => p.clients === c).map((p) => p.rps));
      const ratio = rpsOf(8) / rpsOf(1);
      const machineMs = median(phases.filter((p) => p.clients === 8).map((p) => p.machineMsPerCreate));
      const ceiling = (cpus().length * 1000) / machineMs / rpsOf(1);
      log(
        `  8 clients / 1 client: ${ratio.toFixed(2)}x (target 3x); the machine's ${cpus().length} cores all busy at ${machineMs.toFixed(1)} ms a create: ${ceiling.toFixed(2)}x`,
      );
      return { workers, phases, ratio, ceiling };
    };
    const from = monotonicMicros();
    const rounds = [await createRounds(1)];
    if (PROFILE_DIR) {
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      fs.writeFileSync(
        path.join(PROFILE_DIR, 'window.json'),
        JSON.stringify({ from, to: monotonicMicros() }),
      );
    }

    log(`A month's run: ${AGREEMENTS} recurring agreements with autoSend, due today`);
    const today = new Date();
    const agreement = { autoSend: true, intervalMonths: 1, nextInvoiceDate: today.toISOString() };
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < AGREEMENTS) {
          next++;
          await post('/invoices', invoice({ recurringAgreement: agreement }));
        }
      }),
    );
    await pdfsDrained();
    const scheduler = new JobScheduler(orm, appScheduled, createLogger('warn', process.stderr));
    const [{ at }] = await owner.execute<{ at: Date }[]>(`select now() as at`);
    const started = performance.now();
    const [run] = await scheduler.runNow(['invoices.recurring'], { tenantId: tenant.id, now: new Date() });
    const runMs = performance.now() - started;
    const generatedSql = `select count(*)::int as n from invoice where tenant_id = ? and recurring_agreement is null and created > ?`;
    const generated = await count(generatedSql, [tenant.id, at]);
    const sentMs = performance.now() - started;
    const sent = await count(`${generatedSql} and status = 'SENT'`, [tenant.id, at]);
    if (sent !== AGREEMENTS || generated !== AGREEMENTS)
      throw new Error(
        `the run made ${generated} invoices, ${sent} SENT, of ${AGREEMENTS} (${JSON.stringify(run)})`,
      );
    log(`  invoices.recurring: ${generated} invoices made and SENT in ${(runMs / 1000).toFixed(1)} s`);
    let mailedMs = 0;
    for (;;) {
      const pending = await count(
        `select count(*)::int as n from event_delivery where tenant_id = ? and channel = 'EMAIL' and status = 'PENDING'`,
        [tenant.id],
      );
      if (pending === 0) break;
      await sleep(200);
    }
    mailedMs = performance.now() - started;
    const mails = await count(
      `select count(*)::int as n from event_delivery where tenant_id = ? and channel = 'EMAIL' and status <> 'PENDING'`,
      [tenant.id],
    );
    log(
      `  their ${mails} e-mails delivered (to the .eml outbox) ${(mailedMs / 1000).toFixed(1)} s after the run started`,
    );
    await pdfsDrained();
    const pdfsMs = performance.now() - started;
    const withPdf = await count(`${generatedSql} and pdf is not null`, [tenant.id, at]);
    log(`  their PDFs stored (${withPdf}) ${(pdfsMs / 1000).toFixed(1)} s after the run started`);
    if (WORKERS > 1) {
      await single.stop();
      service = await start(WORKERS);
      const cluster = service;
      stops.push(() => cluster.stop());
      rounds.push(await createRounds(WORKERS));
    }
    const loadAverage = loadavg();
    log(`  load average ${loadAverage.map((l) => l.toFixed(2)).join(' ')}`);
    return {
      rounds,
      recurring: { generated, runMs, sentMs, mailedMs, pdfsMs },
      loadAverage,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
