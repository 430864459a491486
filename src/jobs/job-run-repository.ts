import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';
import { affectedRows } from '../db/worker-transaction';
import type { JobOutcome } from '../entities/job-run';

/**
 * The scheduler's statements on `job_run` (src/entities/job-run.ts), and its read of the tenants
 * jobs run for. Each runs in the scheduler's worker transaction (`asWorker(orm, 'jobs', ...)`),
 * whose policies admit every tenant's runs and tenants. The claims are one statement each for all
 * the periods of a turn, and their conditions are checked again on the row a racing process left:
 * they stay SQL.
 */

/** A period a process would claim: the job, its tenant (null for the deployment) and its start. */
export interface RunCandidate {
  job: string;
  tenant_id: string | null;
  /** ISO 8601. */
  period_start: string;
}

/** A run's row, as the statements below return it. */
export interface JobRunRow {
  id: string;
  job: string;
  tenant_id: string | null;
  period_start: Date;
  manual: boolean;
  attempts: number;
  started_at: Date;
  finished_at: Date | null;
  outcome: JobOutcome | null;
  items: number | null;
  error: string | null;
}

/** A job's name with its latest run's columns, all null when it never ran. */
export type LatestRunRow = { name: string } & (JobRunRow | { [K in keyof JobRunRow]: null });

/** The latest run of each job named (started last, manual or not). */
export function latestRuns(em: EntityManager, jobs: readonly string[]): Promise<LatestRunRow[]> {
  return queryRows<LatestRunRow>(
    em,
    `select j.name, r.* from unnest($1::text[]) as j(name)
       left join lateral (select * from job_run where job = j.name order by started_at desc limit 1) r on true`,
    [jobs],
  );
}

export type ClaimStateRow = Pick<JobRunRow, 'job' | 'tenant_id' | 'outcome' | 'attempts' | 'finished_at'>;

/** The scheduled runs that claimed these periods (a period no process claimed has none). */
export function claimStates(
  em: EntityManager,
  candidates: readonly RunCandidate[],
): Promise<ClaimStateRow[]> {
  return queryRows<ClaimStateRow>(
    em,
    `select c.job, c.tenant_id, r.outcome, r.attempts, r.finished_at
       from jsonb_to_recordset($1::jsonb) as c(job text, tenant_id uuid, period_start timestamptz)
       join job_run r on not r.manual and r.job = c.job and r.tenant_id is not distinct from c.tenant_id
         and r.period_start = c.period_start`,
    [JSON.stringify(candidates)],
  );
}

export interface JobTenantRow {
  id: string;
  /** The tenant's `defaultTimezone` setting, as stored (null when unset). */
  zone: string | null;
  scopes: Record<string, unknown> | null;
}

/** The tenants jobs run for: active and not deleted (the one named, when `tenantId` is given). */
export function jobTenants(em: EntityManager, tenantId?: string): Promise<JobTenantRow[]> {
  return queryRows<JobTenantRow>(
    em,
    `select id, settings->>'defaultTimezone' as zone, scopes from tenant
       where active and delete_after is null ${tenantId ? 'and id = $1' : ''} order by id`,
    tenantId ? [tenantId] : [],
  );
}

export type ClaimedRunRow = Pick<JobRunRow, 'id' | 'job' | 'tenant_id' | 'period_start' | 'attempts'>;

export interface ClaimLimits {
  maxAttempts: number;
  retryAfterMs: number;
  staleAfterMs: number;
}

/**
 * Claims in one statement: inserts the periods no process has claimed, and takes back those
 * whose run failed (after the back-off, within the attempts) or died with its process. Two
 * processes racing both try; the unique index (insert) and the row lock (update, whose
 * condition is checked again on the row as the first left it) let exactly one have each.
 */
export function claimRuns(
  em: EntityManager,
  candidates: readonly RunCandidate[],
  { maxAttempts, retryAfterMs, staleAfterMs }: ClaimLimits,
): Promise<ClaimedRunRow[]> {
  return queryRows<ClaimedRunRow>(
    em,
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
    [JSON.stringify(candidates), maxAttempts, retryAfterMs, staleAfterMs],
  );
}

/** Gives back claims a stopping process will not run: as if never claimed, or failed as before. */
export async function releaseRuns(em: EntityManager, ids: readonly string[]): Promise<void> {
  await queryRows(
    em,
    `with gone as (delete from job_run where id = any($1::uuid[]) and attempts = 1 and finished_at is null)
       update job_run set attempts = attempts - 1, outcome = 'failed', finished_at = started_at,
         error = 'given back: the process stopped before running it'
       where id = any($1::uuid[]) and attempts > 1 and finished_at is null`,
    [ids],
  );
}

/** Records a manual run (outside the claims' unique index); its id. */
export async function insertManualRun(
  em: EntityManager,
  job: string,
  tenantId: string | null,
  periodStart: Date,
): Promise<string> {
  const [row] = await queryRows<Pick<JobRunRow, 'id'>>(
    em,
    `insert into job_run (job, tenant_id, period_start, manual) values ($1, $2, $3, true) returning id`,
    [job, tenantId, periodStart.toISOString()],
  );
  return row.id;
}

/** Records how a run ended. */
export async function finishRun(
  em: EntityManager,
  id: string,
  outcome: JobOutcome,
  items: number,
  error: string | null,
): Promise<void> {
  await queryRows(
    em,
    `update job_run set finished_at = now(), outcome = $2, items = $3, error = $4 where id = $1`,
    [id, outcome, items, error],
  );
}

/** Deletes the runs started more than `days` days ago; how many. */
export function pruneRuns(em: EntityManager, days: number): Promise<number> {
  if (!Number.isInteger(days)) throw new Error(`not a number of days: ${days}`);
  return affectedRows(em, `delete from job_run where started_at < now() - make_interval(days => ${days})`);
}
