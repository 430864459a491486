import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../logger';
import type { FileStorage } from '../files/storage';

/**
 * Time-based work: what runs on a schedule, declared as data and run by the scheduler
 * (scheduler.ts) that every service process starts. A job runs at most once per period across
 * every process: the run claims its period by inserting a `job_run` row whose key (job, tenant,
 * period start) is unique, so whichever process inserts first runs it and the others do nothing.
 * Kernel jobs are declared in kernel-jobs.ts, a domain's in its module's `scheduled`.
 *
 * After downtime only the current period runs, once: missed periods are not replayed one by one.
 * A job that must produce something for every period it missed (a recurring invoice per month)
 * finds what is due from its own data (a next date stored on the record), not from the periods
 * the scheduler saw.
 */

/**
 * How often a process's scheduler wakes, unless JOBS_TICK_MS says otherwise: a job runs within
 * this of its period's start, and an idle process sends at most a statement this often.
 */
export const DEFAULT_TICK_MS = 30_000;

/**
 * When a job runs: every `every` milliseconds (periods aligned on the epoch, the same in every
 * process), or once a day at `dailyAt` ('HH:MM', 24-hour), in the tenant's time zone for a
 * per-tenant job and in UTC for a deployment-wide one.
 */
export type JobSchedule = { every: number } | { dailyAt: string };

/**
 * `Files` is the store the process hands its jobs: the kernel knows it as `FileStorage`; the
 * composition gives the files module's store, which a module's job may use as such.
 */
export interface JobContext<Files extends FileStorage = FileStorage> {
  /**
   * Per-tenant jobs: an entity manager forked for that tenant inside a tenant transaction (the
   * application role, row-level security applies), committed when `run` resolves and rolled back
   * when it throws; deployment-wide jobs, and per-tenant ones with `ownTransactions`: a plain
   * fork, outside any transaction.
   */
  em: EntityManager;
  /** Set for per-tenant jobs. */
  tenantId?: string;
  /** The run's clock: now, or what `bms jobs:run --now` says (for tests and operators). */
  now: Date;
  /** The start of the period this run claimed. */
  periodStart: Date;
  logger: Logger;
  /** The process's file store, for a job that stores files (e-mail attachments); absent in tools without one. */
  files?: Files;
}

export interface ScheduledJob<Files extends FileStorage = FileStorage> {
  /** Unique, dotted by owner: 'invoices.overdue', 'history.retention'. */
  name: string;
  /** One line, shown by `bms jobs` and in docs/operations.md. */
  description: string;
  schedule: JobSchedule;
  /** Runs once per tenant per period (a claim per tenant), with `ctx.em` bound to the tenant. */
  perTenant?: boolean;
  /**
   * A per-tenant job that opens a tenant transaction of its own for each item it handles (with
   * `withTenant`): `ctx.em` is then outside any transaction. Its run commits as it goes and holds
   * no lock for its whole length; in one transaction, a run making a tenant's recurring invoices
   * held the tenant's invoice-number lock, and each invoice it had locked, until its last one.
   */
  ownTransactions?: boolean;
  /**
   * The tenant's functional area (a key of the tenant's `scopes`: 'finance', 'inventory'...) the
   * job belongs to; a per-tenant job is skipped for tenants that turned it off.
   */
  module?: string;
  /** Does the period's work; resolves to the number of items handled (recorded and counted). */
  run(ctx: JobContext<Files>): Promise<number>;
}
