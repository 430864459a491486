import type { MikroORM } from '@mikro-orm/core';
import { asWorker } from '../db/worker-transaction';
import { scheduleDigests } from '../events/digest';
import { purgeExpiredHistory } from '../history/retention';
import { removeDue } from '../services/tenant-lifecycle';
import type { FileStorage } from '../files/storage';
import { deleteExpiredKeys } from './idempotency-cleanup';
import type { ScheduledJob } from './job';
import { pruneRuns } from './job-run-repository';

/** What the kernel's jobs work with, handed in by whoever starts them (serve.ts, the CLI). */
export interface KernelJobDeps {
  orm: MikroORM;
  /** The file store, whose objects of a purged tenant go with it. */
  files: FileStorage;
  /** How often digests that are due are looked for (DIGEST_INTERVAL_MS). */
  digestIntervalMs: number;
  /** Wakes this process's event worker, so digests just scheduled go out without a poll's wait. */
  nudgeEvents?: () => void;
}

/** How long the record of a job's runs is kept. */
export const JOB_RUNS_KEPT_DAYS = 90;

/**
 * The jobs of every tenant's records that no domain owns; a domain's own jobs are in its
 * module's `scheduled`. Each was a timer of every process before; as a job it runs once per
 * period for the whole deployment, and its runs are recorded.
 */
export function kernelJobs({ orm, files, digestIntervalMs, nudgeEvents }: KernelJobDeps): ScheduledJob[] {
  return [
    {
      name: 'idempotency.cleanup',
      description: 'deletes idempotency keys past their 24 hours, of every tenant',
      schedule: { every: 15 * 60_000 },
      run: () => deleteExpiredKeys(orm),
    },
    {
      name: 'history.retention',
      description: "deletes history entries and deleted records older than each tenant's retention period",
      schedule: { every: 60 * 60_000 },
      async run() {
        const { entries, deletions } = await purgeExpiredHistory(orm);
        return entries + deletions;
      },
    },
    {
      name: 'tenants.purge',
      description: 'removes every row and stored file of the deleted tenants whose grace period is over',
      schedule: { every: 60 * 60_000 },
      async run({ logger }) {
        const removed = await removeDue(orm, files.backend);
        for (const r of removed) logger.info(r, 'deleted tenant removed: its grace period is over');
        return removed.length;
      },
    },
    {
      name: 'events.digests',
      description: 'schedules the e-mail digests whose period has ended, one per user and period',
      schedule: { every: digestIntervalMs },
      async run({ now }) {
        const scheduled = await scheduleDigests(orm, now);
        if (scheduled > 0) nudgeEvents?.();
        return scheduled;
      },
    },
    {
      name: 'jobs.prune',
      description: `deletes the record of scheduled jobs' runs older than ${JOB_RUNS_KEPT_DAYS} days`,
      schedule: { dailyAt: '03:30' },
      run: () => asWorker(orm, 'jobs', (em) => pruneRuns(em, JOB_RUNS_KEPT_DAYS)),
    },
  ];
}
