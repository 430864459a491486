import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { queryRows, type Rows } from '../db/orm-bypass/statements';
import { withTenant } from '../db/tenant-transaction';
import { asWorker } from '../db/worker-transaction';
import type { Logger } from '../logger';
import type { FileStorage } from '../files/storage';
import { DEFAULT_TICK_MS, type ScheduledJob } from './job';
import { checkJobs, describeSchedule, isModuleOn, periodOf, zoneOrUtc } from './periods';

/**
 * The scheduler every service process starts: it wakes every `tickMs`, works out each job's
 * current period (per tenant, in the tenant's time zone, for per-tenant jobs), claims the periods
 * not yet claimed by inserting their `job_run` rows (one statement for all of them; a row another
 * process inserted first is left alone), runs what it claimed one job at a time, and records each
 * run's end, outcome and items. The claim is the insert, so a period runs once whatever the number
 * of processes, and a process that was down finds only the current period to run (job.ts).
 *
 * Quiet when idle: a turn reads the tenants (only when some job is per-tenant) and sends the
 * claim only for periods this process has not yet seen claimed, so between periods a process
 * sends at most one statement a tick.
 *
 * A failed run is recorded with its error and tried again at a later tick, after `retryAfterMs`
 * times the attempts so far, up to `maxAttempts` runs of the period in all. A run whose process
 * died (claimed, never finished) is taken over once `staleAfterMs` has passed since it started,
 * counted as an attempt: a job must bear a second run of a period that was cut short.
 */
export interface SchedulerOptions<Files extends FileStorage = FileStorage> {
  /** How often the scheduler wakes (JOBS_TICK_MS). */
  tickMs?: number;
  /** Runs of one period in all, the first included. */
  maxAttempts?: number;
  /** Wait before a failed period is tried again, times the attempts made. */
  retryAfterMs?: number;
  /** A run not finished this long after it started is taken to have died with its process. */
  staleAfterMs?: number;
  /** Told of every finished run (the metrics). */
  observe?: JobRunObserver;
  /** The file store the jobs are given (JobContext.files). */
  files?: Files;
}

const DEFAULTS = {
  tickMs: DEFAULT_TICK_MS,
  maxAttempts: 3,
  retryAfterMs: 5 * 60_000,
  staleAfterMs: 60 * 60_000,
};

export type JobOutcome = 'ok' | 'failed';

export type JobRunObserver = (run: {
  job: string;
  outcome: JobOutcome;
  items: number;
  seconds: number;
}) => void;

/** What one run did, as `bms jobs:run` prints it. */
export interface JobRunResult {
  job: string;
  tenantId: string | null;
  periodStart: string;
  manual: boolean;
  /** `skipped`: a manual run for a tenant that turned the job's module off. */
  outcome: JobOutcome | 'skipped';
  items: number;
  error?: string;
}

/** A job as `bms jobs` lists it. */
export interface JobStatus {
  name: string;
  description: string;
  schedule: string;
  perTenant: boolean;
  module: string | null;
  lastRun: {
    tenantId: string | null;
    periodStart: string;
    manual: boolean;
    attempts: number;
    startedAt: string;
    finishedAt: string | null;
    outcome: JobOutcome | null;
    items: number | null;
    error: string | null;
  } | null;
  /** When a scheduler will next run it (for any tenant); now when it is due; null with no tenant to run for. */
  nextRun: string | null;
}

/** The scheduler's way into every tenant's runs and into the tenants' zones and scopes. */
const WORKER = 'jobs';
/** An error longer than this is cut when recorded (the log has it whole). */
const ERROR_CHARS = 2000;

interface TenantRow {
  id: string;
  zone: string;
  scopes: Record<string, unknown> | null;
}

interface Due {
  job: ScheduledJob;
  tenantId: string | null;
  periodStart: Date;
  next: Date;
}

interface Claimed {
  id: string;
  job: string;
  tenant_id: string | null;
  period_start: Date | string;
  attempts: number;
}

const keyOf = (job: string, tenantId: string | null, periodStart: Date) =>
  `${job}|${tenantId ?? ''}|${periodStart.toISOString()}`;

export class UnknownJob extends Error {}

export class JobScheduler<Files extends FileStorage = FileStorage> {
  readonly jobs: readonly ScheduledJob<Files>[];
  private readonly settings: Required<Omit<SchedulerOptions, 'observe' | 'files'>>;
  /** Periods this process saw claimed, and until when (wall clock) it need not look at them again. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly orm: MikroORM,
    jobs: readonly ScheduledJob<Files>[],
    private readonly logger: Logger,
    private readonly options: SchedulerOptions<Files> = {},
  ) {
    checkJobs(jobs);
    this.jobs = jobs;
    this.settings = {
      tickMs: options.tickMs ?? DEFAULTS.tickMs,
      maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
      retryAfterMs: options.retryAfterMs ?? DEFAULTS.retryAfterMs,
      staleAfterMs: options.staleAfterMs ?? DEFAULTS.staleAfterMs,
    };
  }

  /** Runs a tick now and then every `tickMs`, one at a time; the timer keeps no process alive. */
  start(): { stop(): Promise<void> } {
    let stopped = false;
    let running: Promise<unknown> | undefined;
    const turn = () => {
      if (running || stopped) return;
      running = this.tick(new Date(), () => stopped)
        .catch((err: unknown) =>
          this.logger.warn({ err }, 'scheduled jobs could not be claimed; trying again at the next tick'),
        )
        .finally(() => (running = undefined));
    };
    turn();
    const timer = setInterval(turn, this.settings.tickMs);
    timer.unref();
    return {
      stop: async () => {
        stopped = true;
        clearInterval(timer);
        await running;
      },
    };
  }

  /**
   * One turn: claims every period due at `now` that no process has claimed (or whose failed run
   * may be tried again) and runs them. `stopping` is asked before each run: claims left when it
   * says yes are given back for another process (or the next start) to take.
   */
  async tick(now = new Date(), stopping: () => boolean = () => false): Promise<JobRunResult[]> {
    const due = await this.due(now);
    const clock = Date.now();
    for (const [key, until] of this.seen) if (until <= clock) this.seen.delete(key);
    const unseen = due.filter((d) => !this.seen.has(keyOf(d.job.name, d.tenantId, d.periodStart)));
    if (unseen.length === 0) return [];
    const claimed = await this.claim(unseen);
    // What another process holds is looked at again only once a failure of it could be retried.
    for (const d of unseen)
      this.seen.set(
        keyOf(d.job.name, d.tenantId, d.periodStart),
        Math.min(d.next.getTime() - now.getTime(), this.settings.retryAfterMs) + clock,
      );
    const byKey = new Map(unseen.map((d) => [keyOf(d.job.name, d.tenantId, d.periodStart), d]));
    const results: JobRunResult[] = [];
    for (const [i, claim] of claimed.entries()) {
      if (stopping()) {
        await this.release(claimed.slice(i));
        break;
      }
      const d = byKey.get(keyOf(claim.job, claim.tenant_id, new Date(claim.period_start)))!;
      results.push(await this.execute(d.job, claim.id, d.tenantId, d.periodStart, now, false));
    }
    return results;
  }

  /**
   * Runs `names` (every job for 'all') now, outside their schedule: for one tenant when
   * `tenantId` is given (then only per-tenant jobs), else for every active tenant. Each run is
   * recorded as a manual run of the period `now` falls in, which the scheduled claim ignores.
   */
  async runNow(
    names: readonly string[] | 'all',
    { tenantId, now = new Date() }: { tenantId?: string; now?: Date } = {},
  ): Promise<JobRunResult[]> {
    const jobs = names === 'all' ? this.jobs : names.map((name) => this.job(name));
    if (tenantId && names !== 'all')
      for (const job of jobs)
        if (!job.perTenant)
          throw new UnknownJob(`job "${job.name}" runs for the whole deployment; --tenant does not apply`);
    const tenants = jobs.some((j) => j.perTenant) ? await this.tenants(tenantId) : [];
    if (tenantId && tenants.length === 0) throw new UnknownJob(`no active tenant ${tenantId}`);
    const results: JobRunResult[] = [];
    for (const job of jobs) {
      if (!job.perTenant) {
        if (tenantId) continue;
        const { start } = periodOf(job.schedule, now);
        results.push(
          await this.execute(job, await this.insertManual(job, null, start), null, start, now, true),
        );
        continue;
      }
      for (const tenant of tenants) {
        const { start } = periodOf(job.schedule, now, tenant.zone);
        if (!isModuleOn(tenant.scopes, job.module)) {
          results.push(this.result(job, tenant.id, start, true, 'skipped', 0));
          continue;
        }
        const id = await this.insertManual(job, tenant.id, start);
        results.push(await this.execute(job, id, tenant.id, start, now, true));
      }
    }
    return results;
  }

  /** Every job with its schedule, its last run and its next. */
  async status(now = new Date()): Promise<JobStatus[]> {
    const latest = await this.sql(
      `select j.name, r.* from unnest($1::text[]) as j(name)
       left join lateral (select * from job_run where job = j.name order by started_at desc limit 1) r on true`,
      [this.jobs.map((j) => j.name)],
    );
    const due = await this.due(now);
    const claims = await this.sql(
      `select c.job, c.tenant_id, r.outcome, r.attempts, r.finished_at
       from jsonb_to_recordset($1::jsonb) as c(job text, tenant_id uuid, period_start timestamptz)
       join job_run r on not r.manual and r.job = c.job and r.tenant_id is not distinct from c.tenant_id
         and r.period_start = c.period_start`,
      [JSON.stringify(due.map(candidate))],
    );
    const claimOf = new Map(claims.map((c) => [`${c.job}|${c.tenant_id ?? ''}`, c]));
    return this.jobs.map((job) => {
      const last = latest.find((r) => r.name === job.name);
      let next: number | null = null;
      for (const d of due.filter((x) => x.job === job)) {
        const claim = claimOf.get(`${job.name}|${d.tenantId ?? ''}`);
        const at = !claim
          ? now.getTime()
          : claim.outcome === 'failed' && Number(claim.attempts) < this.settings.maxAttempts
            ? new Date(claim.finished_at as string).getTime() +
              this.settings.retryAfterMs * Number(claim.attempts)
            : d.next.getTime();
        next = next === null ? at : Math.min(next, at);
      }
      return {
        name: job.name,
        description: job.description,
        schedule: describeSchedule(job),
        perTenant: job.perTenant === true,
        module: job.module ?? null,
        lastRun: last?.id
          ? {
              tenantId: (last.tenant_id as string | null) ?? null,
              periodStart: iso(last.period_start)!,
              manual: last.manual === true,
              attempts: Number(last.attempts),
              startedAt: iso(last.started_at)!,
              finishedAt: iso(last.finished_at),
              outcome: (last.outcome as JobOutcome | null) ?? null,
              items: last.items === null ? null : Number(last.items),
              error: (last.error as string | null) ?? null,
            }
          : null,
        nextRun: next === null ? null : new Date(Math.max(next, now.getTime())).toISOString(),
      };
    });
  }

  private job(name: string): ScheduledJob {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new UnknownJob(`no job "${name}" (bms jobs lists them)`);
    return job;
  }

  /** Each job's current period, per tenant (active, with the job's module on) for per-tenant jobs. */
  private async due(now: Date): Promise<Due[]> {
    const tenants = this.jobs.some((j) => j.perTenant) ? await this.tenants() : [];
    const due: Due[] = [];
    for (const job of this.jobs) {
      if (!job.perTenant) {
        const { start, next } = periodOf(job.schedule, now);
        due.push({ job, tenantId: null, periodStart: start, next });
        continue;
      }
      for (const tenant of tenants) {
        if (!isModuleOn(tenant.scopes, job.module)) continue;
        const { start, next } = periodOf(job.schedule, now, tenant.zone);
        due.push({ job, tenantId: tenant.id, periodStart: start, next });
      }
    }
    return due;
  }

  /** The tenants jobs run for: active and not deleted (one, when `tenantId` is given). */
  private async tenants(tenantId?: string): Promise<TenantRow[]> {
    const rows = await this.sql(
      `select id, settings->>'defaultTimezone' as zone, scopes from tenant
       where active and delete_after is null ${tenantId ? 'and id = $1' : ''} order by id`,
      tenantId ? [tenantId] : [],
    );
    return rows.map((r) => ({
      id: r.id as string,
      zone: zoneOrUtc(r.zone as string | null),
      scopes: r.scopes as TenantRow['scopes'],
    }));
  }

  /**
   * Claims in one statement: inserts the periods no process has claimed, and takes back those
   * whose run failed (after the back-off, within the attempts) or died with its process. Two
   * processes racing both try; the unique index (insert) and the row lock (update, whose
   * condition is checked again on the row as the first left it) let exactly one have each.
   */
  private async claim(due: Due[]): Promise<Claimed[]> {
    const { maxAttempts, retryAfterMs, staleAfterMs } = this.settings;
    return (await this.sql(
      `with c as (
         select * from jsonb_to_recordset($1::jsonb) as c(job text, tenant_id uuid, period_start timestamptz)
       ), fresh as (
         insert into job_run (job, tenant_id, period_start)
         select job, tenant_id, period_start from c
         on conflict do nothing
         returning id, job, tenant_id, period_start, attempts
       ), again as (
         update job_run r
         set attempts = r.attempts + 1, started_at = now(), finished_at = null, outcome = null, items = null, error = null
         from c
         where not r.manual and r.job = c.job and r.tenant_id is not distinct from c.tenant_id
           and r.period_start = c.period_start and r.attempts < $2
           and ((r.outcome = 'failed' and r.finished_at <= now() - make_interval(secs => $3::float8 * r.attempts / 1000))
             or (r.finished_at is null and r.started_at <= now() - make_interval(secs => $4::float8 / 1000)))
         returning r.id, r.job, r.tenant_id, r.period_start, r.attempts
       )
       select * from fresh union all select * from again`,
      [JSON.stringify(due.map(candidate)), maxAttempts, retryAfterMs, staleAfterMs],
    )) as unknown as Claimed[];
  }

  /** Gives back claims a stopping process will not run: as if never claimed, or failed as before. */
  private async release(claims: Claimed[]): Promise<void> {
    await this.sql(
      `with gone as (delete from job_run where id = any($1::uuid[]) and attempts = 1 and finished_at is null)
       update job_run set attempts = attempts - 1, outcome = 'failed', finished_at = started_at,
         error = 'given back: the process stopped before running it'
       where id = any($1::uuid[]) and attempts > 1 and finished_at is null`,
      [claims.map((c) => c.id)],
    );
  }

  private async insertManual(job: ScheduledJob, tenantId: string | null, periodStart: Date): Promise<string> {
    const [row] = await this.sql(
      `insert into job_run (job, tenant_id, period_start, manual) values ($1, $2, $3, true) returning id`,
      [job.name, tenantId, periodStart.toISOString()],
    );
    return row.id as string;
  }

  /** Runs one claimed period of `job` and records how it ended. */
  private async execute(
    job: ScheduledJob,
    runId: string,
    tenantId: string | null,
    periodStart: Date,
    now: Date,
    manual: boolean,
  ): Promise<JobRunResult> {
    const logger = this.logger.child({ job: job.name, ...(tenantId ? { tenantId } : {}) });
    const started = process.hrtime.bigint();
    let outcome: JobOutcome = 'ok';
    let items = 0;
    let error: string | undefined;
    try {
      const handled = await this.runJob(job, tenantId, periodStart, now, logger);
      items = Number.isFinite(handled) ? Math.max(0, Math.min(2 ** 31 - 1, Math.trunc(handled))) : 0;
    } catch (err) {
      outcome = 'failed';
      error = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_CHARS);
      logger.warn({ err, periodStart }, 'scheduled job failed');
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    try {
      await this.sql(
        `update job_run set finished_at = now(), outcome = $2, items = $3, error = $4 where id = $1`,
        [runId, outcome, items, error ?? null],
      );
    } catch (err) {
      // Left unfinished, the period is taken over once the run counts as dead (staleAfterMs).
      logger.error({ err }, "a scheduled job's run could not be recorded");
    }
    if (outcome === 'ok' && items > 0) logger.info({ items, periodStart }, 'scheduled job ran');
    this.options.observe?.({ job: job.name, outcome, items, seconds });
    return this.result(job, tenantId, periodStart, manual, outcome, items, error);
  }

  private runJob(
    job: ScheduledJob,
    tenantId: string | null,
    periodStart: Date,
    now: Date,
    logger: Logger,
  ): Promise<number> {
    if (!tenantId)
      return job.run({
        em: this.orm.em.fork({ clear: true, useContext: false }),
        now,
        periodStart,
        logger,
        files: this.options.files,
      });
    // As the tenant, under row-level security, with the job named as the writer of what it changes.
    return withTenant(this.orm.em, { tenantId, userId: null, email: job.name }, (em: EntityManager) =>
      job.run({ em, tenantId, now, periodStart, logger, files: this.options.files }),
    );
  }

  private result(
    job: ScheduledJob,
    tenantId: string | null,
    periodStart: Date,
    manual: boolean,
    outcome: JobRunResult['outcome'],
    items: number,
    error?: string,
  ): JobRunResult {
    return {
      job: job.name,
      tenantId,
      periodStart: periodStart.toISOString(),
      manual,
      outcome,
      items,
      ...(error === undefined ? {} : { error }),
    };
  }

  private sql(text: string, params: readonly unknown[]): Promise<Rows> {
    return asWorker(this.orm, WORKER, (em) => queryRows(em, text, params));
  }
}

const candidate = (d: Due) => ({
  job: d.job.name,
  tenant_id: d.tenantId,
  period_start: d.periodStart.toISOString(),
});

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
