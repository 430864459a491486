import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { signToken, type JwtSettings } from '../src/auth/jwt';
import { ormOptions } from '../src/db/orm';
import { buildAppSchema } from '../src/app-schema';
import { prepareSchema } from '../test/support/database';
import { ormComposition } from '../src/orm-composition';
import { peerView, sameJson, sameShape } from './check';
import { benchConfig, type BenchConfig } from './config';
import { comparedDatabase, startCompared, type ComparedDatabase } from './compared';
import { analyze, createBenchDatabase, type BenchDatabase } from './database';
import { drive, type LoadResult } from './drive';
import { explainAll, type Explained } from './explain';
import { loadTenant, timed, type LoadedTenant, type TenantShape } from './load-data';
import { eventsScenario } from './events-load';
import { fanoutScenario } from './events-fanout';
import { pushScenario } from './push';
import { historyScenario } from './history';
import { invoicingScenario } from './invoicing';
import { transferScenario } from './transfers';
import { cpuOf, peerNodeVersion, startBaseline, startPeer, startService, type Server } from './processes';
import { latestProfile, monotonicMicros, summarizeProfile } from './profile';
import {
  latencyTable,
  mb,
  ratios,
  ratiosTable,
  roundRatio,
  resultsTable,
  statementsTable,
  type LatencyPoint,
  type Row,
  type StatementCount,
} from './report';
import {
  COMPARED,
  CREDENTIALED,
  scenarios,
  withCompared,
  WRITES,
  type HttpRequest,
  type Scenario,
  type ScenarioKey,
  type Target,
} from './scenarios';
import { startCapture, type Capture, type Statement } from './sql-capture';
import { startIssuer, type Credentials } from './credentials';
import { WriteUpkeep } from './writes';

/**
 * `npm run bench`: a fresh database, a realistic data set loaded through the service's own code,
 * the service (the build output, as deployed) and the baseline as child processes, load from
 * this process, then the table and the ratios (bench/README.md, "How ratios are computed").
 */
const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'dist', 'bench-results');
const FEATURE_TABLES = ['feature', 'task', 'epic', 'app_user', 'tenant_role', 'tenant'];
/** The 1M-row comparison: a group of a million rows spread over this many tenants. */
const LARGE_ROWS = 1_000_000;
const LARGE_TENANTS = 100;
/** Seconds of load on a target before it is measured. */
const WARM_UP_SECONDS = 3;
/** Requests of a delete scenario's warm-up (each takes rows of its own). */
const WARM_UP_DELETES = 300;
/** Seconds each form of the peer's question runs when the run picks the fastest. */
const PEER_FORM_SECONDS = 3;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const log = (line = '') => console.log(line);

function machine(serverVersion: string, peerNode: string): string {
  const cpus = os.cpus();
  return [
    `${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}`,
    `service on Node ${process.version}, peer (PostGraphile 5) on Node ${peerNode}; ${serverVersion}`,
    `load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other work on the machine makes figures noisy)`,
  ].join('\n');
}

interface Run {
  cfg: BenchConfig;
  db: BenchDatabase;
  orm: MikroORM;
  jwt: JwtSettings;
  service: Server;
  baseline: Server;
  peer: Server;
  /** The service of BENCH_COMPARE_DIR, when given. */
  compare?: Server;
  /** Its database, data and write upkeep (bench/compared.ts). */
  compared?: ComparedSide;
  capture: Capture;
  tenants: LoadedTenant[];
  /** The issuer's token and the API key the credentialed targets use, once the main tenant is loaded. */
  credentials?: Credentials;
  /** The write tenant's pools, restore and checks. */
  upkeep?: WriteUpkeep;
  /** Per target, the features its deletes take in the coming run. */
  pools: Map<Target, string[]>;
}

/**
 * The compared checkout's side of the run. On a database of its own it has tenants of its own
 * (the same shapes and seeds, other ids), so its targets ask its scenarios with its tokens, and
 * its write tenant has its own upkeep; on ours, the same tenants with pools of its own.
 */
interface ComparedSide {
  db: ComparedDatabase;
  /** Its main tenant's planner token (own database only). */
  token?: string;
  /** Its scenarios, which the `*-compare` targets ask. */
  scenarios: Scenario[];
  upkeep: WriteUpkeep;
  /** Per target (by the name of ours it stands for), the features its deletes take. */
  pools: Map<Target, string[]>;
}

/** The database, write upkeep and delete pools a target's requests act on, and its key there. */
function sideOf(run: Run, target: Target) {
  const theirs = COMPARED[target];
  if (theirs && run.compared)
    return {
      dbName: run.compared.db.name,
      upkeep: run.compared.upkeep,
      pools: run.compared.pools,
      key: theirs,
    };
  return { dbName: run.db.name, upkeep: run.upkeep!, pools: run.pools, key: target };
}

/** The credential a target's requests carry: its own where it has one, else the HS256 token. */
function credentialFor(run: Run, target: Target, token: string): string {
  if (COMPARED[target] && run.compared?.token) return run.compared.token;
  const kind = CREDENTIALED[target];
  if (!kind) return token;
  if (!run.credentials) throw new Error(`${target} needs credentials that were not created`);
  return run.credentials[kind];
}

const tokenOf = (jwt: JwtSettings, t: LoadedTenant) =>
  signToken(jwt, { sub: t.planner.id, email: t.planner.email, tenantId: t.tenantId });

/**
 * One write through a service before anything of it is measured, as every deployment makes. On
 * Node 20, and on Node 22 without the flag docs/deployment.md recommends, the first flush turns
 * on promise hooks for the rest of the process (an AsyncLocalStorage of MikroORM's); reads alone
 * do not flush, so a bench of reads would otherwise measure a process no deployment runs.
 */
async function writeOnce(server: Server, jwt: JwtSettings, t: LoadedTenant): Promise<void> {
  const token = signToken(jwt, { sub: t.admin.id, email: t.admin.email, tenantId: t.tenantId });
  const res = await fetch(`${server.base}/api/v1/concepts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench write ${server.pid}` }),
  });
  if (res.status !== 201)
    throw new Error(`${server.name}: a write answered ${res.status}: ${await res.text()}`);
}

const serverFor = (run: Run, target: Target) =>
  COMPARED[target]
    ? run.compare!
    : target === 'postgraphile'
      ? run.peer
      : target.startsWith('baseline')
        ? run.baseline
        : run.service;

async function fetchJson(
  base: string,
  req: HttpRequest,
  token: string,
): Promise<{ status: number; body: any; bytes: number }> {
  const res = await fetch(`${base}${req.path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: req.body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, bytes: Buffer.byteLength(text) };
}

/**
 * Whether every target answers the REST facade's JSON for the same request; logs each target's
 * answer size, since a target that answers fewer fields also writes less.
 */
async function checkSameJson(run: Run, scenario: Scenario, token: string): Promise<Map<Target, boolean>> {
  const out = new Map<Target, boolean>();
  const i = 7;
  const ours = await fetchJson(run.service.base, scenario.request('rest', i), token);
  out.set('rest', ours.status < 300);
  const sizes = [`rest ${ours.bytes}`];
  const page = scenario.key !== 'find';
  // On a database of its own the compared checkout answers about its own rows: its targets are
  // held to its REST answer, and that to ours in shape.
  const own = run.compared?.db.own
    ? await fetchJson(
        run.compare!.base,
        scenario.request('rest-compare', i),
        credentialFor(run, 'rest-compare', token),
      )
    : undefined;
  for (const target of scenario.targets.filter((t) => t !== 'rest')) {
    const got = await fetchJson(
      serverFor(run, target).base,
      scenario.request(target, i),
      credentialFor(run, target, token),
    );
    const asked = COMPARED[target] ?? target;
    const reference = own && COMPARED[target] ? own : ours;
    if (own && target === 'rest-compare') {
      const same = got.status < 300 && sameShape(ours.body, got.body);
      if (!same)
        log(
          `  ${scenario.title} / ${target} answers in another shape: ${JSON.stringify(got.body).slice(0, 300)}`,
        );
      out.set(target, same);
      sizes.push(`${target} ${got.bytes}`);
      continue;
    }
    const graphql = asked === 'graphql' || asked === 'graphql-columns' || asked === 'postgraphile';
    const body = graphql ? (got.body?.errors ? undefined : got.body?.data?.result) : got.body;
    const same =
      asked === 'graphql-columns' || asked === 'postgraphile'
        ? sameJson(peerView(page, reference.body), peerView(page, body))
        : sameJson(reference.body, body, scenario.key === 'create');
    if (!same)
      log(`  ${scenario.title} / ${target} answers differently: ${JSON.stringify(got.body).slice(0, 300)}`);
    out.set(target, got.status < 300 && same);
    sizes.push(`${target} ${got.bytes}`);
  }
  log(`  ${scenario.title}, bytes of the answer: ${sizes.join(', ')}`);
  return out;
}

/**
 * The envelope every request pays whatever it does: the transaction (BEGIN, set_config for
 * row-level security, COMMIT) and authentication (the user with its roles' permissions in one
 * statement; the tenant's state at most every 30 s).
 */
const AUTH_AND_TX = [
  /from "?tenant"? /,
  /^BEGIN/i,
  /^COMMIT/i,
  /^ROLLBACK/i,
  /set_config\('role'/,
  /from "?app_user"?/,
];

/** A short name for a statement: `select feature`, `count feature`, `tally task`, `insert feature`. */
function label(sql: string): string {
  const s = sql.trim();
  if (s.includes("set_config('role'")) {
    const begin = /^BEGIN/i.test(s) ? 'BEGIN + ' : '';
    return `${begin}set_config${/from "?app_user"?/.test(s) ? ' + user and roles' : ''}`;
  }
  if (/^(BEGIN|COMMIT|ROLLBACK)/i.test(s)) return s.replace(/;$/, '').toUpperCase();
  if (/from "?app_user"?/.test(s)) return 'user + roles';
  const table = /(?:from|into|update) "?(\w+)"?/i.exec(s)?.[1] ?? '?';
  if (/left join lateral/i.test(s)) return `page + count ${table}`;
  if (/^insert/i.test(s)) return `insert ${table}`;
  if (/^update/i.test(s)) return `update ${table}`;
  if (/^delete/i.test(s)) return `delete ${table}`;
  if (/^select count\(\*\)/i.test(s)) return `count ${table}`;
  if (/group by/i.test(s)) return `tally ${table}`;
  return `select ${table}`;
}

function countStatements(scenario: Scenario, statements: Statement[]): StatementCount {
  const auth = statements.filter((s) => AUTH_AND_TX.some((re) => re.test(s.sql.trim()))).length;
  const trips = new Map<number, string[]>();
  for (const s of statements) trips.set(s.trip, [...(trips.get(s.trip) ?? []), label(s.sql)]);
  return {
    scenario: scenario.key,
    total: statements.length,
    roundTrips: trips.size,
    authAndTransaction: auth,
    beyondAuth: statements.length - auth,
    statements: [...trips.values()].map((labels) => labels.join(' + ')),
  };
}

/**
 * CPU seconds used so far by each backend of the bench database, from /proc (Linux, with
 * PostgreSQL on this machine; empty otherwise). Only one target runs at a time, so the growth
 * over a measured run is that target's PostgreSQL CPU (the idle connections of the others add
 * nothing).
 */
async function backendsCpu(orm: MikroORM, database: string): Promise<Map<number, number>> {
  const rows = await orm.em
    .getConnection()
    .execute<{ pid: number }[]>(
      `select pid from pg_stat_activity where datname = ? and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      [database],
    );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = cpuOf(pid);
    if (cpu !== undefined) out.set(pid, cpu);
  }
  return out;
}

function grownBy(before: Map<number, number>, after: Map<number, number>): number | undefined {
  if (after.size === 0) return undefined;
  let total = 0;
  // A backend that started during the run counts whole; one that ended is lost (pools keep theirs).
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

async function measure(
  run: Run,
  scenario: Scenario,
  target: Target,
  token: string,
  duration: number,
  warmUp: boolean,
  amounts: { warmUp?: number; run?: number } = {},
) {
  const server = serverFor(run, target);
  const base = {
    base: server.base,
    token: credentialFor(run, target, token),
    connections: run.cfg.connections,
  };
  // Warm-up: JIT, pool connections, plan caches; not counted. V8 needs thousands of calls of a
  // path to optimise it: with 200 requests, whichever target ran first measured a cold process
  // (its first seconds ran 30-40% slower than the rest of the run).
  if (warmUp)
    await drive({
      ...base,
      duration: WARM_UP_SECONDS,
      amount: amounts.warmUp,
      request: (i) => scenario.request(target, (amounts.warmUp ? 0 : 1_000_000) + i),
    });
  const database = sideOf(run, target).dbName;
  const pgBefore = run.cfg.embedded ? new Map<number, number>() : await backendsCpu(run.orm, database);
  const cpuBefore = server.cpu();
  const result = await drive({
    ...base,
    duration,
    amount: amounts.run,
    request: (i) => scenario.request(target, i),
  });
  const cpuAfter = server.cpu();
  const pgAfter = run.cfg.embedded ? new Map<number, number>() : await backendsCpu(run.orm, database);
  const perRequest = (seconds: number | undefined) =>
    seconds === undefined || result.requests === 0 ? undefined : (seconds * 1000) / result.requests;
  const cpuMsPerRequest = perRequest(
    cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
  );
  const pgCpuMsPerRequest = perRequest(grownBy(pgBefore, pgAfter));
  return { result, cpuMsPerRequest, pgCpuMsPerRequest };
}

/**
 * A delete scenario's run: each request deletes rows no other request named, made just before
 * it, and the run ends when they are used; their number comes from the rate measured before
 * (the previous round's, or the warm-up's), so that the run lasts about the configured time.
 */
async function measureDeletes(
  run: Run,
  scenario: Scenario,
  target: Target,
  token: string,
  warmUp: boolean,
  previousRps: number | undefined,
) {
  const per = scenario.deletes!;
  const side = sideOf(run, target);
  let rate = previousRps;
  if (warmUp) {
    side.pools.set(side.key, await side.upkeep.pool(WARM_UP_DELETES * per));
    const warm = await drive({
      base: serverFor(run, target).base,
      token,
      connections: run.cfg.connections,
      duration: run.cfg.duration,
      amount: WARM_UP_DELETES,
      request: (i) => scenario.request(target, i),
    });
    // A warm-up runs slower than the process will: a little more, so the run is not cut short.
    rate ??= warm.rps * 1.2;
  }
  const requests = Math.max(200, Math.ceil((rate ?? 200) * run.cfg.duration));
  side.pools.set(side.key, await side.upkeep.pool(requests * per));
  return measure(run, scenario, target, token, run.cfg.duration, false, { run: requests });
}

/**
 * For each scenario with several forms of the peer's question, each form under load in turn
 * (twice, interleaved); the scenario keeps the form with the higher median throughput.
 */
async function choosePeerForms(run: Run, all: Scenario[], token: string): Promise<string[]> {
  const chosen: string[] = [];
  for (const s of all.filter((x) => x.peerForms && x.targets.includes('postgraphile'))) {
    const forms = s.peerForms!;
    const rps = forms.map(() => [] as number[]);
    for (let pass = 0; pass < 2; pass++)
      for (const [k, form] of forms.entries()) {
        const r = await drive({
          base: run.peer.base,
          token,
          connections: run.cfg.connections,
          duration: PEER_FORM_SECONDS,
          request: (i) => form.request(i),
        });
        rps[k].push(r.rps);
      }
    const medians = rps.map((list) => median(list));
    s.peerForm = medians.indexOf(Math.max(...medians));
    const line = `${s.title}: ${forms.map((f, k) => `${f.name} ${medians[k].toFixed(0)} req/s`).join('; ')} -> ${forms[s.peerForm].name}`;
    log(`  ${line}`);
    chosen.push(line);
  }
  return chosen;
}

/** The order of the targets in a round: shifted by one each round, so none always runs first. */
const rotated = <T>(list: T[], round: number) => list.map((_, k) => list[(k + round) % list.length]);

const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

type Measured = Awaited<ReturnType<typeof measure>>;

/** The median of each figure over the rounds; requests and failures summed. */
function medianOf(samples: Measured[]): Measured {
  const optional = (values: (number | undefined)[]) =>
    values.every((v) => v === undefined) ? undefined : median(values.filter((v) => v !== undefined));
  const results = samples.map((s) => s.result);
  return {
    result: {
      requests: results.reduce((n, r) => n + r.requests, 0),
      seconds: results.reduce((n, r) => n + r.seconds, 0),
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      mean: median(results.map((r) => r.mean)),
      failures: results.reduce((n, r) => n + r.failures, 0),
    },
    cpuMsPerRequest: optional(samples.map((s) => s.cpuMsPerRequest)),
    pgCpuMsPerRequest: optional(samples.map((s) => s.pgCpuMsPerRequest)),
  };
}

/** dynamic-search (page of 20) latency on one connection, and the database's own time for it. */
async function searchLatency(
  run: Run,
  tenant: LoadedTenant,
  label: string,
  all: Scenario[],
): Promise<LatencyPoint> {
  const search = all.find((s) => s.key === 'search20')!;
  const token = tokenOf(run.jwt, tenant);
  await analyze(run.orm, FEATURE_TABLES);
  const rest: LoadResult = await drive({
    base: run.service.base,
    token,
    connections: 1,
    duration: run.cfg.duration,
    request: (i) => search.request('rest', i),
  });
  const captured = await run.capture.run(search.request('rest', 0), token);
  if (captured.status >= 300)
    throw new Error(`dynamic-search answered ${captured.status}: ${JSON.stringify(captured.body)}`);
  const pageAndCount = captured.statements.filter((s) => /from "feature"/.test(s.sql));
  const explained = await explainAll(run.db.url, tenant.tenantId, pageAndCount);
  printExplain(label, explained);
  const count = async (table: string) =>
    (
      await run.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from "${table}"`)
    )[0].n;
  return {
    label,
    tableRows: await count('feature'),
    tenants: await count('tenant'),
    rest,
    explainMs: explained.length ? explained.reduce((sum, e) => sum + e.executionMs, 0) : NaN,
  };
}

function printExplain(label: string, explained: Explained[]) {
  log(`\nEXPLAIN (ANALYZE, BUFFERS), ${label}:`);
  for (const e of explained) {
    log(`  ${e.sql.slice(0, 160)}${e.sql.length > 160 ? '...' : ''}`);
    log(`  indexes used: ${e.indexes.join(', ') || 'NONE'}`);
    log(
      e.plan
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
    );
  }
}

interface SoakSample {
  at: number;
  /** Taken right after a forced full collection. */
  gc: boolean;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  young: number;
  old: number;
  external: number;
  load: number;
}

async function soak(run: Run, all: Scenario[], token: string) {
  const mix = all.filter((s) => s.key === 'find' || s.key === 'search20' || s.key === 'create');
  const probe = run.service.probe;
  if (!probe) throw new Error('the soak needs the service started with its memory probe');
  const samples: SoakSample[] = [];
  const started = Date.now();
  const sample = async (gc = false) => {
    const p = await probe(gc);
    samples.push({
      at: (Date.now() - started) / 1000,
      gc,
      rss: p.rss,
      heapUsed: p.heapUsed,
      heapTotal: p.heapTotal,
      young: p.spaces.new_space?.size ?? NaN,
      old: p.spaces.old_space?.size ?? NaN,
      external: p.external,
      load: os.loadavg()[0],
    });
  };
  await sample(true);
  await sample();
  const timer = setInterval(() => void sample(), 30_000);
  const result = await drive({
    base: run.service.base,
    token,
    connections: run.cfg.connections,
    duration: run.cfg.soakSeconds,
    rate: run.cfg.soakRate,
    request: (i) => mix[i % mix.length].request('rest', i),
  });
  clearInterval(timer);
  await sample();
  await sample(true);
  return { result, samples };
}

async function profileScenarios(run: Run, all: Scenario[], token: string): Promise<void> {
  const target = run.cfg.profileTarget;
  for (const scenario of all.filter((s) => s.targets.includes(target))) {
    const dir = path.join(OUT, 'profiles', scenario.key);
    fs.rmSync(dir, { recursive: true, force: true });
    const service = await startService({
      databaseUrl: run.db.url,
      jwtSecret: run.cfg.jwtSecret,
      poolSize: run.cfg.poolSize,
      logLevel: run.cfg.logLevel,
      profileDir: dir,
    });
    await writeOnce(service, run.jwt, run.tenants[0]);
    const load = { base: service.base, token, connections: run.cfg.connections };
    const window = { from: 0, to: 0 };
    // A delete takes rows made for it, as measureDeletes does: a pool for the warm-up, then one
    // for about the run's duration at the warm-up's rate.
    const per = scenario.deletes;
    try {
      if (per) run.pools.set(target, await run.upkeep!.pool(WARM_UP_DELETES * per));
      const warm = await drive({
        ...load,
        duration: WARM_UP_SECONDS,
        amount: per ? WARM_UP_DELETES : undefined,
        request: (i) => scenario.request(target, (per ? 0 : 1_000_000) + i),
      });
      const amount = per ? Math.max(200, Math.ceil(warm.rps * 1.2 * run.cfg.duration)) : undefined;
      if (per && amount) run.pools.set(target, await run.upkeep!.pool(amount * per));
      window.from = monotonicMicros();
      await drive({
        ...load,
        duration: run.cfg.duration,
        amount,
        request: (i) => scenario.request(target, i),
      });
      window.to = monotonicMicros();
    } finally {
      await service.stop();
    }
    const file = latestProfile(dir);
    log(
      `\nCPU profile of the service under load, ${scenario.title} (${target}): ${file ?? 'no profile written'}`,
    );
    if (file) {
      // The load window beside the profile, so that it can be summarised again (bench/profile.ts).
      fs.writeFileSync(path.join(dir, 'window.json'), JSON.stringify(window));
      log(summarizeProfile(file, window, run.cfg.profileRows));
    }
  }
}

/**
 * find and create against one service process and against WEB_CONCURRENCY workers, both started
 * alike for this comparison: rate limits in Redis when REDIS_URL is set (as several processes
 * need), off in both otherwise. Interleaved rounds; the table gives medians and the ratio.
 */
async function compareProcesses(run: Run, all: Scenario[], token: string): Promise<string> {
  const picked = all.filter((s) => s.key === 'find' || s.key === 'create');
  const redisUrl = process.env.REDIS_URL || undefined;
  const options = {
    databaseUrl: run.db.url,
    jwtSecret: run.cfg.jwtSecret,
    poolSize: run.cfg.poolSize,
    logLevel: run.cfg.logLevel,
    redisUrl,
    limitsOff: !redisUrl,
  };
  log(
    `\nOne process against WEB_CONCURRENCY=${run.cfg.workers} (rate limits ${redisUrl ? 'in Redis' : 'off'} in both; pool ${run.cfg.poolSize} per process):`,
  );
  const targets = [
    { name: '1 process', server: await startService(options) },
    {
      name: `${run.cfg.workers} workers`,
      server: await startService({ ...options, workers: run.cfg.workers }),
    },
  ];
  const rps = new Map<string, number[]>();
  const p50 = new Map<string, number[]>();
  try {
    for (let round = 0; round < run.cfg.rounds; round++) {
      for (const s of picked) {
        for (const { name, server } of targets) {
          const load = { base: server.base, token, connections: run.cfg.connections };
          if (round === 0)
            await drive({
              ...load,
              duration: WARM_UP_SECONDS,
              request: (i) => s.request('rest', 1_000_000 + i),
            });
          const result = await drive({
            ...load,
            duration: run.cfg.duration,
            request: (i) => s.request('rest', i),
          });
          const key = `${s.key} ${name}`;
          rps.set(key, [...(rps.get(key) ?? []), result.rps]);
          p50.set(key, [...(p50.get(key) ?? []), result.p50]);
          log(
            `  round ${round + 1}, ${s.title} / ${name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms${result.failures ? `, ${result.failures} FAILED` : ''}`,
          );
        }
      }
    }
  } finally {
    for (const { server } of targets) await server.stop();
  }
  const lines = [
    `| scenario | 1 process req/s (p50 ms) | ${run.cfg.workers} workers req/s (p50 ms) | ratio |`,
    '| --- | ---: | ---: | ---: |',
  ];
  for (const s of picked) {
    const [one, many] = targets.map((t) => median(rps.get(`${s.key} ${t.name}`)!));
    const [oneP50, manyP50] = targets.map((t) => median(p50.get(`${s.key} ${t.name}`)!));
    lines.push(
      `| ${s.title} | ${one.toFixed(0)} (${oneP50}) | ${many.toFixed(0)} (${manyP50}) | ${(many / one).toFixed(2)} |`,
    );
  }
  lines.push(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}; on a machine whose cores also run PostgreSQL and the load generator, the workers compete with both`,
  );
  return lines.join('\n');
}

async function main() {
  const cfg = benchConfig();
  // The events scenario stands alone (a database, a service and receivers of its own).
  // So does the history scenario (docs/history.md, "What it costs").
  if (process.env.BENCH_HISTORY_SCENARIO === '1') {
    await historyScenario(log);
    return;
  }
  // So does the invoicing scenario (bench/README.md, "Other scenarios").
  if (process.env.BENCH_INVOICING_SCENARIO === '1') {
    await invoicingScenario(log);
    return;
  }
  if (process.env.BENCH_EVENTS_SCENARIO === '1') {
    log(
      'Events: creates at the maximum rate with webhooks to 1 and to 10 endpoints (one slow), then the drain',
    );
    await eventsScenario(log);
    return;
  }
  if (process.env.BENCH_FANOUT_SCENARIO === '1') {
    log(
      'Fan-out: creates at the maximum rate with subscription sockets of the tenant and of another, and the lag to each',
    );
    await fanoutScenario(log);
    return;
  }
  if (process.env.BENCH_TRANSFER_SCENARIO === '1') {
    await transferScenario(log);
    return;
  }
  if (process.env.BENCH_PUSH_SCENARIO === '1') {
    log('Push: notifications created with Web Push off, then on (to a local push service), and the pushes/s');
    await pushScenario(log);
    return;
  }
  fs.mkdirSync(OUT, { recursive: true });
  const db = await createBenchDatabase(cfg.serverUrl);
  cfg.embedded = db.embedded;
  if (db.embedded) {
    log('No PostgreSQL server answered: running on the embedded PGlite (one connection, WASM).');
    log('These figures are NOT comparable with a PostgreSQL server. Set DATABASE_URL for real ones.\n');
    cfg.poolSize = 1;
  }
  const stops: (() => Promise<void>)[] = [];
  try {
    log(`Database ${db.name} (${cfg.keep ? 'kept' : 'dropped'} afterwards)`);
    await prepareSchema(db.url);
    // The loader's own connections wait longer than the service's 5 s to connect: on a machine
    // busy with other work, opening a backend has taken longer than that, and a bench that dies
    // while loading data measures nothing.
    const orm = await MikroORM.init<PostgreSqlDriver>({
      ...ormOptions({ composition: ormComposition, clientUrl: db.url, poolMax: cfg.poolSize > 1 ? 4 : 1 }),
      driverOptions: { connection: { connectionTimeoutMillis: 60_000, statement_timeout: 300_000 } },
    });
    stops.push(() => orm.close(true));
    const serverVersion = (await orm.em.getConnection().execute<{ v: string }[]>('select version() as v'))[0]
      .v;
    const peerNode = peerNodeVersion(cfg.peerNode);
    log(machine(serverVersion.split(' on ')[0], peerNode));
    log(
      `duration ${cfg.duration} s per run, ${cfg.connections} connections, service pool ${cfg.poolSize}, log level ${cfg.logLevel}\n`,
    );
    const jwt: JwtSettings = { secret: cfg.jwtSecret };
    const schema = await buildAppSchema();

    const shape = (name: string, features: number, epics: number, maxTasks = 3): TenantShape => ({
      name,
      features,
      epics,
      maxTasks,
    });
    // The tenants and their seeds, in the order loaded; the compared checkout on a database of
    // its own loads the same.
    const shapes = {
      small: { shape: shape('Small', 10_000, 100), seed: 1 },
      main: { shape: shape('Main', cfg.features, 1000), seed: 2 },
      // The writes' tenant: the main tenant's shape, so a write meets the indexes and neighbours a
      // real one would, yet none of the read scenarios' rows.
      write: {
        shape: shape(
          'Write',
          cfg.writeFeatures,
          Math.max(10, Math.round((cfg.writeFeatures * 1000) / cfg.features)),
        ),
        seed: 5,
      },
      otherA: { shape: shape('Other A', 5_000, 50), seed: 3 },
      otherB: { shape: shape('Other B', 5_000, 50), seed: 4 },
    };
    const comparedDb = cfg.compareDir
      ? await comparedDatabase(cfg, db, {
          tenants: Object.values(shapes),
          tables: FEATURE_TABLES,
          poolMax: cfg.poolSize > 1 ? 4 : 1,
        })
      : undefined;
    if (comparedDb) {
      stops.push(() => (cfg.keep ? Promise.resolve() : comparedDb.drop()));
      log(
        comparedDb.own
          ? `The compared checkout's migrations differ from these: it runs on ${comparedDb.name}, migrated and loaded by its own code (alongside this load)`
          : 'The compared checkout runs on this database (its migrations are these)',
      );
      // A failed load is reported where it is awaited.
      comparedDb.tenants?.catch(() => undefined);
    }

    log('Loading data through the service code (provisioning, ORM insertMany in tenant transactions):');
    const tenants: LoadedTenant[] = [];
    const load = async ({ shape: s, seed }: { shape: TenantShape; seed: number }) => {
      const { value } = await timed(`${s.name}: ${s.features} features`, () => loadTenant(orm, s, seed));
      tenants.push(value);
      return value;
    };
    const small = await load(shapes.small);

    const issuer = await startIssuer();
    stops.push(() => issuer.stop());
    const service = await startService({
      databaseUrl: db.url,
      jwtSecret: cfg.jwtSecret,
      poolSize: cfg.poolSize,
      logLevel: cfg.logLevel,
      caFile: issuer.caFile,
      memoryProbe: cfg.soakSeconds > 0,
    });
    stops.push(() => service.stop());
    const baseline = await startBaseline({
      databaseUrl: db.url,
      jwtSecret: cfg.jwtSecret,
      poolSize: cfg.poolSize,
    });
    stops.push(() => baseline.stop());
    const peer = await startPeer({
      databaseUrl: db.url,
      jwtSecret: cfg.jwtSecret,
      poolSize: cfg.poolSize,
      node: cfg.peerNode,
    });
    stops.push(() => peer.stop());
    const theirTenants = await comparedDb?.tenants;
    const compare = comparedDb ? await startCompared(cfg, comparedDb) : undefined;
    if (compare) stops.push(() => compare.stop());
    await writeOnce(service, jwt, small);
    if (compare) await writeOnce(compare, jwt, theirTenants?.[0] ?? small);
    const capture = await startCapture(db.url, jwt);
    stops.push(() => capture.close());
    const pools = new Map<Target, string[]>();
    const run: Run = { cfg, db, orm, jwt, service, baseline, peer, compare, capture, tenants, pools };

    const smallScenarios = scenarios(schema, {
      tenantId: small.tenantId,
      featureIds: small.sampleFeatureIds,
      epicIds: small.epicIds,
    });
    const latency: LatencyPoint[] = [
      await searchLatency(run, small, 'Small tenant, table holds only it', smallScenarios),
    ];

    const main = await load(shapes.main);
    const writer = await load(shapes.write);
    await load(shapes.otherA);
    await load(shapes.otherB);
    await analyze(orm, FEATURE_TABLES);
    latency.push(await searchLatency(run, small, 'Small tenant, after the main load', smallScenarios));

    const token = tokenOf(jwt, main);
    const adminToken = signToken(jwt, {
      sub: main.admin.id,
      email: main.admin.email,
      tenantId: main.tenantId,
    });
    run.credentials = await issuer.credentials(service.base, main, { admin: adminToken });
    const upkeep = await WriteUpkeep.open(db.url, {
      tenantId: writer.tenantId,
      featureIds: writer.sampleFeatureIds,
    });
    stops.push(() => upkeep.close());
    run.upkeep = upkeep;
    const scenariosOf = (m: LoadedTenant, w: LoadedTenant, poolsOf: Map<Target, string[]>) =>
      scenarios(schema, {
        tenantId: m.tenantId,
        featureIds: m.sampleFeatureIds,
        epicIds: m.epicIds,
        write: {
          tenantId: w.tenantId,
          featureIds: w.sampleFeatureIds,
          epicIds: w.epicIds,
          token: tokenOf(jwt, w),
          email: w.planner.email,
        },
        pools: poolsOf,
      })
        .filter((s) => cfg.only.length === 0 || cfg.only.includes(s.key))
        .map((s) =>
          cfg.targets.length ? { ...s, targets: s.targets.filter((t) => cfg.targets.includes(t)) } : s,
        )
        .filter((s) => s.targets.length > 0);
    const chosen = scenariosOf(main, writer, pools);
    if (comparedDb) {
      // Theirs in the order loaded: small, main, write, the others.
      const [theirMain, theirWriter] = theirTenants ? [theirTenants[1], theirTenants[2]] : [main, writer];
      const theirPools = new Map<Target, string[]>();
      const theirUpkeep = comparedDb.own
        ? await WriteUpkeep.open(comparedDb.url, {
            tenantId: theirWriter.tenantId,
            featureIds: theirWriter.sampleFeatureIds,
          })
        : upkeep;
      if (comparedDb.own) stops.push(() => theirUpkeep.close());
      run.compared = {
        db: comparedDb,
        token: theirTenants ? tokenOf(jwt, theirMain) : undefined,
        scenarios: scenariosOf(theirMain, theirWriter, theirPools),
        upkeep: theirUpkeep,
        pools: theirPools,
      };
    }
    const all = run.compared ? withCompared(chosen, run.compared.scenarios) : chosen;
    // Both databases start each round from the same state.
    const restore = async () => {
      await upkeep.restore();
      if (run.compared?.db.own) await run.compared.upkeep.restore();
    };

    log('\nSQL per request (captured from the service at the driver):');
    const counts: StatementCount[] = [];
    // One request first, so the tenant's state is cached as it is in steady state.
    if (!all[0].deletes) {
      const first = all[0].request(all[0].captureTarget ?? 'rest', 0);
      await capture.run(first, first.token ?? token);
    }
    const writeSql: string[] = [];
    for (const s of all.filter((x) => x.key !== 'mixed')) {
      const target = s.captureTarget ?? 'rest';
      if (s.deletes) pools.set(target, await upkeep.pool(5 * s.deletes));
      // The most of five requests: a feature without an epic, say, skips the epic statement.
      let most: Statement[] = [];
      for (let i = 0; i < 5; i++) {
        const req = s.request(target, i);
        const { status, statements } = await capture.run(req, req.token ?? token);
        if (status >= 300) throw new Error(`${s.title} answered ${status} while its SQL was captured`);
        if (statements.length > most.length) most = statements;
      }
      counts.push(countStatements(s, most));
      if (WRITES.includes(s.key))
        writeSql.push(
          `${s.title} (${target}):\n${most.map((st, k) => `  ${k + 1}. [trip ${st.trip - most[0].trip + 1}] ${st.sql}`).join('\n')}`,
        );
    }
    log(statementsTable(counts));
    if (writeSql.length) log(`\nEvery statement of a write, in order:\n${writeSql.join('\n')}`);
    await restore();

    log("\nThe peer's forms of each question, each under load in turn (the faster is kept):");
    const peerForms = await choosePeerForms(run, all, token);

    log(`\nLoad (${cfg.rounds} interleaved rounds; the tables give each figure's median):`);
    const same = new Map<ScenarioKey, Map<Target, boolean>>();
    for (const s of all.filter((x) => !WRITES.includes(x.key)))
      same.set(s.key, await checkSameJson(run, s, token));
    const samples = new Map<string, Measured[]>();
    const roundLoads: string[] = [];
    const send = async (target: Target, req: HttpRequest) =>
      (await fetchJson(serverFor(run, target).base, req, req.token ?? token)).status;
    // Round after round over every scenario and target, so a change in the machine's other load
    // falls on all targets alike rather than on whichever ran at that time; each round starts
    // from the same tables, and its targets run in an order shifted by one from the last round's.
    for (let round = 0; round < cfg.rounds; round++) {
      await restore();
      roundLoads.push(loadAverage());
      log(`  round ${round + 1}: tables restored and vacuumed; load average ${roundLoads[round]}`);
      for (const s of all) {
        for (const target of rotated(s.targets, round)) {
          const key = `${s.key} ${target}`;
          const previous = samples.get(key)?.at(-1)?.result.rps;
          const m = s.deletes
            ? await measureDeletes(run, s, target, token, round === 0, previous)
            : await measure(run, s, target, token, cfg.duration, round === 0);
          samples.set(key, [...(samples.get(key) ?? []), m]);
          log(
            `  round ${round + 1}, ${s.title} / ${target}: ${m.result.rps.toFixed(0)} req/s, p50 ${m.result.p50} ms, p99 ${m.result.p99} ms, CPU ms/req ${m.cpuMsPerRequest?.toFixed(2) ?? '-'} (server) ${m.pgCpuMsPerRequest?.toFixed(2) ?? '-'} (PostgreSQL)${m.result.failures ? `, ${m.result.failures} FAILED` : ''}`,
          );
        }
        // The same rows: after the scenario's first round, one request per target read back.
        if (round === 0 && WRITES.includes(s.key) && s.key !== 'mixed') {
          const checked = await sameRows(run, s, send);
          same.set(s.key, checked);
          const wrong = [...checked].filter(([, ok]) => !ok).map(([t]) => t);
          log(`  ${s.title}: same rows ${wrong.length ? `NOT for ${wrong.join(', ')}` : 'for every target'}`);
        }
      }
    }
    const rows: Row[] = all.flatMap((s) =>
      s.targets.map((target) => {
        const m = medianOf(samples.get(`${s.key} ${target}`)!);
        return {
          scenario: s.key,
          title: s.title,
          target,
          result: m.result,
          cpuMsPerRequest: m.cpuMsPerRequest,
          pgCpuMsPerRequest: m.pgCpuMsPerRequest,
          sameJson: same.get(s.key)?.get(target),
          roundRps: samples.get(`${s.key} ${target}`)!.map((m) => m.result.rps),
        };
      }),
    );

    if (cfg.large) {
      log(`\nBENCH_LARGE: filling the feature table to ${LARGE_ROWS} rows over ${LARGE_TENANTS} tenants:`);
      const started = Date.now();
      const have = tenants.reduce((n, t) => n + t.features, 0);
      const more = LARGE_TENANTS - tenants.length;
      const each = Math.ceil((LARGE_ROWS - have) / more);
      for (let k = 0; k < more; k++)
        await load({ shape: shape(`Filler ${k + 1}`, each, 20, 1), seed: 100 + k });
      log(`  loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      latency.push(await searchLatency(run, small, `Small tenant, ${LARGE_TENANTS} tenants`, smallScenarios));
    }

    let soakReport: string | undefined;
    if (cfg.soakSeconds > 0) {
      log(`\nSoak: ${cfg.soakSeconds} s at ${cfg.soakRate} req/s (find, search20, create in turn)...`);
      const { result, samples } = await soak(run, all, token);
      const steady = samples.filter((s) => !s.gc);
      const collected = samples.filter((s) => s.gc);
      const peak = Math.max(...steady.map((s) => s.rss));
      // Single samples ride the garbage collector's sawtooth; thirds of the run show a trend.
      const third = Math.max(1, Math.floor(steady.length / 3));
      const mean = (list: SoakSample[], of: (s: SoakSample) => number) =>
        list.reduce((n, s) => n + of(s), 0) / list.length;
      const thirds = (of: (s: SoakSample) => number) =>
        `${mb(mean(steady.slice(0, third), of))} -> ${mb(mean(steady.slice(-third), of))}`;
      const gcLine = (s: SoakSample) =>
        `heap used ${mb(s.heapUsed)}, heap total ${mb(s.heapTotal)}, RSS ${mb(s.rss)}, external ${mb(s.external)}`;
      soakReport = [
        `${result.requests} requests, ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.failures} failed; node ${process.version}`,
        `after a forced full collection, start: ${gcLine(collected[0])}`,
        `after a forced full collection, end:   ${gcLine(collected[collected.length - 1])}`,
        `mean of the first third -> the last third: RSS ${thirds((s) => s.rss)}, heap used ${thirds((s) => s.heapUsed)}, heap total ${thirds((s) => s.heapTotal)}, young generation ${thirds((s) => s.young)}, old space ${thirds((s) => s.old)}; peak RSS ${mb(peak)}`,
        `load average (1 min) ${steady.map((s) => s.load.toFixed(1)).join(', ')}`,
        `samples (s: RSS / heap used / heap total / young / old):`,
        ...steady.map(
          (s) =>
            `  ${s.at.toFixed(0)}: ${mb(s.rss)} / ${mb(s.heapUsed)} / ${mb(s.heapTotal)} / ${mb(s.young)} / ${mb(s.old)}`,
        ),
      ].join('\n');
    }

    if (cfg.profile) await profileScenarios(run, all, token);

    const processesReport = cfg.workers > 1 ? await compareProcesses(run, all, token) : undefined;

    if (cfg.embedded) log('\n(embedded PGlite: not comparable with figures taken on a PostgreSQL server)');
    log('\n== Results ==');
    log(resultsTable(rows));
    log('\n== SQL statements per request ==');
    log(statementsTable(counts));
    log('\n== dynamic-search latency against table size ==');
    log(latencyTable(latency));
    if (soakReport) log(`\n== Soak ==\n${soakReport}`);
    if (processesReport)
      log(`\n== One process against WEB_CONCURRENCY=${cfg.workers} ==\n${processesReport}`);
    if (compare) log(`\n== This checkout against ${cfg.compareDir} ==\n${comparedTable(rows)}`);
    if (peerForms.length) log(`\n== The peer's forms (the faster kept) ==\n${peerForms.join('\n')}`);
    log('\n== Ratios (medians of the per-round ratios, with their range) ==');
    log(ratiosTable(ratios(rows, counts, latency)));
    log(`\nservice on Node ${process.version}, peer on Node ${peerNode}`);
    log(
      `load average (1, 5, 15 min) at each round's start: ${roundLoads.join('; ')}; at end ${loadAverage()}`,
    );
    fs.writeFileSync(
      path.join(OUT, 'latest.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          config: { ...cfg, jwtSecret: undefined },
          nodes: { service: process.version, peer: peerNode },
          loadAverages: roundLoads,
          peerForms,
          rows,
          counts,
          latency,
        },
        null,
        2,
      ),
    );
    log(`(raw figures in ${path.relative(ROOT, path.join(OUT, 'latest.json'))})`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
    if (!cfg.keep) await db.drop().catch((err) => console.error(err));
  }
}

/**
 * The same-rows check of a write scenario, each side on its own database and pools (the compared
 * checkout's targets through its scenarios, with requests numbered apart from ours).
 */
async function sameRows(
  run: Run,
  s: Scenario,
  send: (target: Target, req: HttpRequest) => Promise<number>,
): Promise<Map<Target, boolean>> {
  const out = await run.upkeep!.sameRows(
    { ...s, targets: s.targets.filter((t) => !COMPARED[t]) },
    send,
    run.pools,
  );
  if (!run.compared) return out;
  const theirs = new Map(s.targets.filter((t) => COMPARED[t]).map((t) => [COMPARED[t]!, t]));
  const scenario = run.compared.scenarios.find((x) => x.key === s.key)!;
  const checked = await run.compared.upkeep.sameRows(
    { ...scenario, targets: [...theirs.keys()] },
    (t, req) => send(theirs.get(t)!, req),
    run.compared.pools,
    900_100,
  );
  for (const [t, ok] of checked) out.set(theirs.get(t)!, ok);
  return out;
}

/**
 * Per scenario, this service's throughput, p50 and server CPU per request against the compared
 * checkout's; CPU per request moves less than throughput with the machine's other load.
 */
function comparedTable(rows: Row[]): string {
  const cpu = (v: number | undefined) => v?.toFixed(2) ?? '-';
  const lines = [
    '| scenario | target | this req/s (p50 ms) | compared req/s (p50 ms) | req/s this / compared, per round | server CPU ms/req this / compared | PostgreSQL CPU ms/req this / compared |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const own = COMPARED[r.target];
    const mine = own && rows.find((o) => o.scenario === r.scenario && o.target === own);
    if (!mine) continue;
    const share = roundRatio(mine, r);
    lines.push(
      `| ${r.scenario} | ${own} | ${mine.result.rps.toFixed(0)} (${mine.result.p50}) | ${r.result.rps.toFixed(0)} (${r.result.p50}) | ${(share.median * 100).toFixed(0)}% (${(share.min * 100).toFixed(0)}%-${(share.max * 100).toFixed(0)}%) | ${cpu(mine.cpuMsPerRequest)} / ${cpu(r.cpuMsPerRequest)} | ${cpu(mine.pgCpuMsPerRequest)} / ${cpu(r.pgCpuMsPerRequest)} |`,
    );
  }
  return lines.join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
