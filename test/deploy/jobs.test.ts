import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { openOrm } from '../../src/db/orm';
import { queryRows } from '../../src/db/orm-bypass/statements';
import type { ScheduledJob } from '../../src/jobs/job';
import { JobScheduler, type SchedulerOptions } from '../../src/jobs/scheduler';
import { createLogger } from '../../src/logger';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, cliRunner, errorLines, randomSecret } from '../support/process';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { ormComposition } from '../../src/orm-composition';
import { deployment, eventually, startPair, type Deployment, type ProcessPair } from './deployment';

/**
 * The scheduled jobs (src/jobs/scheduler.ts): a period is claimed once in the database whatever
 * the number of schedulers, a per-tenant daily job runs in each tenant's time zone and under its
 * row-level security, a failure is recorded and retried within bounds, and the CLI lists the jobs
 * and runs them. Tests cannot add a job to a built service, so the last part runs two service
 * processes and watches their real kernel jobs (PostgreSQL only, as every two-process test).
 */
jest.setTimeout(300_000);

let server: TestServer;
let other: MikroORM;
let env: NodeJS.ProcessEnv;
const silent = createLogger('silent');
const { ok, fails } = cliCommands(() => env);

beforeAll(async () => {
  server = await startServer();
  // A second process's view of the database: its own pool.
  other = await openOrm({
    composition: ormComposition,
    clientUrl: await workerDatabaseUrl(),
    poolMax: 2,
    logger: silent,
  });
  env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: randomSecret() });
}, 120_000);
afterAll(async () => {
  await other?.close(true);
  await server?.close();
});

/** The tables' owner's view (the test's connection is not under row-level security). */
const sql = (text: string, params: unknown[] = []) =>
  server.orm.em.getConnection().execute(text, params, 'all') as Promise<Record<string, any>[]>;
const runsOf = (job: string) =>
  sql(
    `select tenant_id, period_start, manual, attempts, outcome, items, error, finished_at
     from job_run where job = ? order by started_at, tenant_id`,
    [job],
  );
/** A job name no other test uses. */
const fresh = (what: string) => `test.${what}-${randomBytes(4).toString('hex')}`;
const scheduler = (orm: MikroORM, jobs: ScheduledJob[], options: SchedulerOptions = {}) =>
  new JobScheduler(orm, jobs, silent, options);
const at = (iso: string) => new Date(iso);

describe('the claim', () => {
  it('is taken once across two schedulers racing, and once again per new period only', async () => {
    let runs = 0;
    const job: ScheduledJob = {
      name: fresh('race'),
      description: 'counts its runs',
      schedule: { every: 60_000 },
      run: async () => ++runs,
    };
    const one = scheduler(server.orm, [job]);
    const two = scheduler(other, [job]);
    const now = at('2026-11-29T05:00:30Z');
    const results = await Promise.all([one.tick(now), two.tick(now), one.tick(now), two.tick(now)]);
    expect(runs).toBe(1);
    expect(results.flat()).toEqual([
      {
        job: job.name,
        tenantId: null,
        periodStart: '2026-11-29T05:00:00.000Z',
        manual: false,
        outcome: 'ok',
        items: 1,
      },
    ]);
    // Fresh schedulers (a restarted process) in the same period find it claimed.
    await Promise.all([scheduler(server.orm, [job]).tick(now), scheduler(other, [job]).tick(now)]);
    expect(runs).toBe(1);
    // The next period runs once; after downtime of many periods, only the current one runs.
    await Promise.all([one.tick(at('2026-11-29T05:01:10Z')), two.tick(at('2026-11-29T05:01:20Z'))]);
    expect(runs).toBe(2);
    await Promise.all([one.tick(at('2026-11-29T06:40:00Z')), two.tick(at('2026-11-29T06:40:00Z'))]);
    expect(runs).toBe(3);
    expect((await runsOf(job.name)).map((r) => [new Date(r.period_start).toISOString(), r.outcome])).toEqual([
      ['2026-11-29T05:00:00.000Z', 'ok'],
      ['2026-11-29T05:01:00.000Z', 'ok'],
      ['2026-11-29T06:40:00.000Z', 'ok'],
    ]);
  });
});

describe('a per-tenant daily job', () => {
  let helsinki: TestTenant;
  let utc: TestTenant;
  let financeOff: TestTenant;

  beforeAll(async () => {
    [helsinki, utc, financeOff] = await Promise.all([
      server.tenant('Helsinki'),
      server.tenant('Utc'),
      server.tenant('No finance'),
    ]);
    await sql(
      `update tenant set settings = jsonb_set(settings, '{defaultTimezone}', '"Europe/Helsinki"') where id = ?`,
      [helsinki.tenantId],
    );
    await sql(`update tenant set scopes = jsonb_set(scopes, '{finance}', 'false') where id = ?`, [
      financeOff.tenantId,
    ]);
  });

  it("runs once per tenant at HH:MM in the tenant's time zone, as the tenant, and skips tenants without its module", async () => {
    const seen: { tenantId?: string; periodStart: string; visible: unknown[]; writer: unknown }[] = [];
    const job: ScheduledJob = {
      name: fresh('daily'),
      description: 'looks around as its tenant',
      schedule: { dailyAt: '06:00' },
      perTenant: true,
      module: 'finance',
      async run({ em, tenantId, periodStart }) {
        // Row-level security applies: the tenant table shows the job's own tenant alone.
        const visible = (await queryRows(em, 'select id from tenant', [])).map((r) => r.id);
        const [writer] = await queryRows(em, `select current_user as role`, []);
        if ([helsinki, utc, financeOff].some((t) => t.tenantId === tenantId))
          seen.push({ tenantId, periodStart: periodStart.toISOString(), visible, writer: writer.role });
        return 1;
      },
    };
    const ours = (t: TestTenant) => seen.filter((s) => s.tenantId === t.tenantId);
    // 05:00 UTC is 07:00 in Helsinki: its 29 November period has begun, UTC's is still the 28th's.
    await Promise.all([
      scheduler(server.orm, [job]).tick(at('2026-11-29T05:00:00Z')),
      scheduler(other, [job]).tick(at('2026-11-29T05:00:00Z')),
    ]);
    expect(ours(helsinki)).toEqual([
      {
        tenantId: helsinki.tenantId,
        periodStart: '2026-11-29T04:00:00.000Z',
        visible: [helsinki.tenantId],
        writer: 'bms_app',
      },
    ]);
    expect(ours(utc)).toEqual([expect.objectContaining({ periodStart: '2026-11-28T06:00:00.000Z' })]);
    expect(ours(financeOff)).toEqual([]);
    // At 06:30 UTC only UTC's day has moved on.
    seen.length = 0;
    await scheduler(server.orm, [job]).tick(at('2026-11-29T06:30:00Z'));
    expect(seen.map((s) => [s.tenantId, s.periodStart])).toEqual([
      [utc.tenantId, '2026-11-29T06:00:00.000Z'],
    ]);
    const recorded = (await runsOf(job.name)).filter((r) => r.tenant_id === helsinki.tenantId);
    expect(recorded).toEqual([
      expect.objectContaining({ manual: false, attempts: 1, outcome: 'ok', items: 1, error: null }),
    ]);
  });
});

describe('a failed run', () => {
  it('is recorded with its error and tried again after the back-off, at most the attempts allowed', async () => {
    let runs = 0;
    const job: ScheduledJob = {
      name: fresh('failing'),
      description: 'fails',
      schedule: { every: 3_600_000 },
      async run() {
        runs++;
        throw new Error('the ledger is locked');
      },
    };
    const now = at('2026-11-29T05:00:00Z');
    const patient = scheduler(server.orm, [job], { retryAfterMs: 3_600_000, maxAttempts: 2 });
    expect(await patient.tick(now)).toEqual([
      expect.objectContaining({ outcome: 'failed', items: 0, error: 'the ledger is locked' }),
    ]);
    // Within the back-off nothing runs, here or in another process.
    await Promise.all([patient.tick(now), scheduler(other, [job], { maxAttempts: 2 }).tick(now)]);
    expect(runs).toBe(1);
    expect(await runsOf(job.name)).toEqual([
      expect.objectContaining({ attempts: 1, outcome: 'failed', error: 'the ledger is locked', items: 0 }),
    ]);
    expect((await runsOf(job.name))[0].finished_at).not.toBeNull();
    // Once the back-off has passed, once more; then the period is given up.
    const eager = scheduler(other, [job], { retryAfterMs: 0, maxAttempts: 2 });
    await eager.tick(now);
    await eager.tick(now);
    expect(runs).toBe(2);
    expect(await runsOf(job.name)).toEqual([expect.objectContaining({ attempts: 2, outcome: 'failed' })]);
    // The next period is a new one.
    await eager.tick(at('2026-11-29T06:00:00Z'));
    expect(runs).toBe(3);
  });
});

describe('bms jobs and bms jobs:run', () => {
  it('list every job with its schedule, last run and next run', async () => {
    const jobs = await ok('jobs');
    expect(jobs.map((j: { name: string }) => j.name)).toEqual(
      expect.arrayContaining([
        'idempotency.cleanup',
        'history.retention',
        'tenants.purge',
        'files.cleanup',
        'events.digests',
        'jobs.prune',
      ]),
    );
    const { lastRun, ...prune } = jobs.find((j: { name: string }) => j.name === 'jobs.prune');
    expect(prune).toEqual({
      name: 'jobs.prune',
      description: expect.stringContaining('90 days'),
      schedule: 'daily at 03:30 UTC',
      perTenant: false,
      module: null,
      nextRun: expect.any(String),
    });
    // None yet, or the scheduled run of a server this worker's database served before.
    if (lastRun !== null) expect(lastRun).toEqual(expect.objectContaining({ manual: false, outcome: 'ok' }));
  });

  it('run a real kernel job now, record it as a manual run, and leave the scheduled claim alone', async () => {
    const tenant = await server.tenant('Keys');
    await sql(
      `insert into idempotency_key (tenant_id, user_id, key, request_hash, status, headers, body, created, expires_at)
       values (?, ?, 'expired', 'h', 201, '{}', '', now() - interval '2 days', now() - interval '1 day')`,
      [tenant.tenantId, tenant.adminId],
    );
    const now = '2026-11-29T05:20:00.000Z';
    const results = await ok('jobs:run', 'idempotency.cleanup', '--now', now);
    expect(results).toEqual([
      {
        job: 'idempotency.cleanup',
        tenantId: null,
        periodStart: '2026-11-29T05:15:00.000Z',
        manual: true,
        outcome: 'ok',
        items: expect.any(Number),
      },
    ]);
    expect(results[0].items).toBeGreaterThanOrEqual(1);
    expect(await sql(`select 1 from idempotency_key where tenant_id = ?`, [tenant.tenantId])).toEqual([]);
    const listed = (await ok('jobs')).find((j: { name: string }) => j.name === 'idempotency.cleanup');
    expect(listed.lastRun).toEqual(
      expect.objectContaining({ manual: true, outcome: 'ok', periodStart: '2026-11-29T05:15:00.000Z' }),
    );
    // The same period is still the scheduler's to claim.
    const { kernelJobs } = await import('../../src/jobs/kernel-jobs');
    const kernel = kernelJobs({ orm: server.orm, files: server.app.files, digestIntervalMs: 60_000 });
    const cleanup = kernel.find((j) => j.name === 'idempotency.cleanup')!;
    expect(await scheduler(server.orm, [cleanup]).tick(new Date(now))).toEqual([
      expect.objectContaining({ manual: false, outcome: 'ok', periodStart: '2026-11-29T05:15:00.000Z' }),
    ]);
  });

  it('refuse what they cannot run', async () => {
    expect(await fails('jobs:run', 'no.such-job')).toEqual({
      code: 1,
      line: expect.stringMatching(/no job/),
    });
    expect(await fails('jobs:run')).toEqual({
      code: 2,
      line: expect.stringMatching(/a job name .* or --all/),
    });
    expect(await fails('jobs:run', 'jobs.prune', '--all')).toEqual({ code: 2, line: expect.any(String) });
    expect(await fails('jobs:run', 'jobs.prune', '--now', 'tomorrow')).toEqual({
      code: 2,
      line: expect.stringMatching(/--now must be an ISO 8601 time/),
    });
    const tenant = await server.tenant('Lonely');
    expect(await fails('jobs:run', 'jobs.prune', '--tenant', tenant.tenantId)).toEqual({
      code: 1,
      line: expect.stringMatching(/whole deployment/),
    });
  });
});

const onServer = process.env.DATABASE_URL ? describe : describe.skip;

onServer('two service processes', () => {
  let d: Deployment;
  let processes: ProcessPair | undefined;

  beforeAll(async () => {
    d = await deployment('jobs');
    processes = await startPair(d, {
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_PER_TENANT: '0',
      DB_POOL_SIZE: '3',
      JOBS_TICK_MS: '1000',
    });
    await d.tenant('Jobs');
  });
  afterAll(async () => {
    await processes?.stop();
    await d?.close();
  });

  it("run each kernel job's period once between them, and record it", async () => {
    const kernel = [
      'idempotency.cleanup',
      'history.retention',
      'tenants.purge',
      'files.cleanup',
      'events.digests',
    ];
    const rows = await eventually('every kernel job to have run', async () => {
      const { rows } = await d.sql.query(
        `select job, period_start, count(*)::int as n, min(outcome) as outcome from job_run
         where not manual group by job, period_start order by job, period_start`,
      );
      const done = rows.filter((r) => r.outcome === 'ok').map((r) => r.job);
      return kernel.every((k) => done.includes(k)) ? rows : undefined;
    });
    // A few ticks of both processes later, still one run per job and period.
    await new Promise((r) => setTimeout(r, 2500));
    const { rows: again } = await d.sql.query(
      `select job, period_start, count(*)::int as n from job_run where not manual group by job, period_start`,
    );
    for (const r of [...rows, ...again]) expect(r.n).toBe(1);
    for (const k of kernel) expect(again.filter((r) => r.job === k).length).toBeGreaterThanOrEqual(1);
    for (const s of processes!.services) expect(errorLines(s.stdout())).toEqual([]);
  });

  it('answer bms jobs from the same records, through the CLI process', async () => {
    const cli = cliRunner(() => childEnv({ DATABASE_URL: d.url, JWT_SECRET: d.secret }));
    const jobs = await cli.ok('jobs');
    const cleanup = jobs.find((j: { name: string }) => j.name === 'idempotency.cleanup');
    expect(cleanup.schedule).toBe('every 15 min');
    expect(cleanup.lastRun).toEqual(expect.objectContaining({ manual: false, outcome: 'ok' }));
    expect(new Date(cleanup.nextRun).getTime()).toBeGreaterThan(Date.now());
  });
});
