import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { withTenant } from '../db/tenant-transaction';
import { asWorker } from '../db/worker-transaction';
import type { Logger } from '../logger';
import type { FileStorage } from '../files/storage';
import type { JobOutcome } from '../entities/job-run';
import { DEFAULT_TICK_MS, type ScheduledJob } from './job';
import {
  claimRuns,
  claimStates,
  finishRun,
  insertManualRun,
  jobTenants,
  latestRuns,
  releaseRuns,
  type ClaimedRunRow,
  type RunCandidate,
} from './job-run-repository';
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

export type { JobOutcome } from '../entities/job-run';

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
    const latest = await this.asWorker((em) =>
      latestRuns(
        em,
        this.jobs.map((j) => j.name),
      ),
    );
    const due = await this.due(now);
    const claims = await this.asWorker((em) => claimStates(em, due.map(candidate)));
    const claimOf = new Map(claims.map((c) => [`${c.job}|${c.tenant_id ?? ''}`, c]));
    return this.jobs.map((job) => {
      const last = latest.find((r) => r.name === job.name);
      let next: number | null = null;
      for (const d of due.filter((x) => x.job === job)) {
        const claim = claimOf.get(`${job.name}|${d.tenantId ?? ''}`);
        const at = !claim
          ? now.getTime()
          : claim.outcome === 'failed' && claim.attempts < this.settings.maxAttempts
            ? new Date(claim.finished_at!).getTime() + this.settings.retryAfterMs * claim.attempts
            : d.next.getTime();
        next = next === null ? at : Math.min(next, at);
      }
      return {
        name: job.name,
        description: job.description,
        schedule: describeSchedule(job),
        perTenant: job.perTenant === true,
        module: job.module ?? null,
        lastRun:
          last && last.id !== null
            ? {
                tenantId: last.tenant_id,
                periodStart: iso(last.period_start)!,
                manual: last.manual,
                attempts: last.attempts,
                startedAt: iso(last.started_at)!,
                finishedAt: iso(last.finished_at),
                outcome: last.outcome,
                items: last.items,
                error: last.error,
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
    const rows = await this.asWorker((em) => jobTenants(em, tenantId));
    return rows.map((r) => ({ id: r.id, zone: zoneOrUtc(r.zone), scopes: r.scopes }));
  }

  /** Claims the periods due that are free to take (job-run-repository.ts says how). */
  private claim(due: Due[]): Promise<ClaimedRunRow[]> {
    const { maxAttempts, retryAfterMs, staleAfterMs } = this.settings;
    return this.asWorker((em) =>
      claimRuns(em, due.map(candidate), { maxAttempts, retryAfterMs, staleAfterMs }),
    );
  }

  /** Gives back claims a stopping process will not run: as if never claimed, or failed as before. */
  private async release(claims: ClaimedRunRow[]): Promise<void> {
    await this.asWorker((em) =>
      releaseRuns(
        em,
        claims.map((c) => c.id),
      ),
    );
  }

  private insertManual(job: ScheduledJob, tenantId: string | null, periodStart: Date): Promise<string> {
    return this.asWorker((em) => insertManualRun(em, job.name, tenantId, periodStart));
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
      await this.asWorker((em) => finishRun(em, runId, outcome, items, error ?? null));
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
    if (!tenantId || job.ownTransactions)
      return job.run({
        em: this.orm.em.fork({ clear: true, useContext: false }),
        ...(tenantId ? { tenantId } : {}),
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

  private asWorker<R>(work: (em: EntityManager) => Promise<R>): Promise<R> {
    return asWorker(this.orm, WORKER, work);
  }
}

const candidate = (d: Due): RunCandidate => ({
  job: d.job.name,
  tenant_id: d.tenantId,
  period_start: d.periodStart.toISOString(),
});

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());
