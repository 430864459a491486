import { LockMode, raw, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { withTenant } from '../../db/tenant-transaction';
import { forkFor, type Actor } from '../../db/tenancy';
import { actAsApplicationTenant, asWorker as acrossTenants } from '../../db/worker-transaction';
import { CoverageJob, CoverageJobStatus } from './entities/coverage-job';
import { PRIORITY_ORDER } from './coverage-priority';

/**
 * The coverage job queue is the `coverage_job` table itself: a job is due when it is PENDING and
 * its `runAfter` has passed. Workers claim one due job at a time with SELECT ... FOR UPDATE SKIP
 * LOCKED, so any number of worker processes share the queue without claiming a job twice and
 * without waiting on each other. A RUNNING job whose row has not been touched for `leaseMs`
 * (progress reports touch it) belongs to a worker that died; it is claimed again as a retry.
 */

export interface QueueSettings {
  /** Retries after the first failed run; the run after the last retry ends FAILED. */
  maxRetries: number;
  /** Delay before the first retry; each further retry waits twice as long. */
  backoffMs: number;
  /** A RUNNING job untouched this long is taken over. */
  leaseMs: number;
}

export interface WorkerIdentity {
  /** This worker instance; stored as the job's currentAgentId while it runs the job. */
  agentId: string;
  workerName: string;
}

/** Whom the worker's writes are attributed to (createdBy/updatedBy; events have no author). */
export const workerActor = (tenantId: string): Actor => ({
  tenantId,
  userId: null,
  email: 'coverage-worker',
});

export interface ClaimedJob {
  tenantId: string;
  job: CoverageJob;
}

const PRIORITY_RANK = `case priority ${PRIORITY_ORDER.map((p, i) => `when '${p}' then ${i}`).join(' ')} else ${PRIORITY_ORDER.length} end`;

function failureOf(job: CoverageJob, message: string, settings: QueueSettings, now: Date): void {
  job.currentAgentId = null;
  job.message = message;
  if (job.retries < settings.maxRetries) {
    job.retries += 1;
    job.status = CoverageJobStatus.PENDING;
    job.runAfter = new Date(now.getTime() + settings.backoffMs * 2 ** (job.retries - 1));
  } else {
    job.status = CoverageJobStatus.FAILED;
    job.completed = now;
  }
}

/**
 * Claims the most urgent due job of any tenant, or returns null. The job is read across tenants
 * (`filters: false`, as the connection's own database user) and locked; then, in the same
 * transaction, the transaction switches to the application role and the job's tenant (as a
 * request transaction does) and the claim is written through a fork bound to that tenant, so
 * row-level security, audit fields and the PENDING -> RUNNING event apply as to any other write.
 * A taken-over job whose retries are used up is ended FAILED instead of being run.
 */
export async function claimNextJob(
  orm: MikroORM,
  identity: WorkerIdentity,
  settings: QueueSettings,
): Promise<ClaimedJob | null> {
  return acrossTenants(orm, 'coverage', async (tx) => {
    const trx = tx.getTransactionContext()!;
    const now = new Date();
    const [found] = await tx.find(
      CoverageJob,
      {
        $or: [
          { status: CoverageJobStatus.PENDING, runAfter: { $lte: now } },
          { status: CoverageJobStatus.RUNNING, updated: { $lt: new Date(now.getTime() - settings.leaseMs) } },
        ],
      },
      {
        filters: false,
        lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
        orderBy: [{ [raw(PRIORITY_RANK)]: 'asc' }, { runAfter: 'asc' }, { created: 'asc' }, { id: 'asc' }],
        limit: 1,
      },
    );
    if (!found) return null;

    await actAsApplicationTenant(tx, found.tenantId);
    const em = forkFor(orm.em, workerActor(found.tenantId));
    em.setTransactionContext(trx);
    try {
      const job = await em.findOneOrFail(CoverageJob, { id: found.id });
      if (job.status === CoverageJobStatus.RUNNING) {
        failureOf(
          job,
          `worker ${job.workerName ?? 'unknown'} stopped responding while running the job`,
          settings,
          now,
        );
      }
      if (job.status === CoverageJobStatus.PENDING) {
        job.status = CoverageJobStatus.RUNNING;
        job.started = now;
        job.completed = null;
        job.progress = 0;
        job.workerName = identity.workerName;
        job.currentAgentId = identity.agentId;
      }
      await em.flush();
      return { tenantId: found.tenantId, job };
    } finally {
      em.resetTransactionContext();
    }
  });
}

/** Runs `work` in a transaction of its own as the worker, within the job's tenant. */
export const asWorker = <R>(orm: MikroORM, tenantId: string, work: (em: EntityManager) => Promise<R>) =>
  withTenant(orm.em, workerActor(tenantId), work);

/**
 * Applies `change` to a job this worker still holds (nobody took it over); returns the job as
 * stored afterwards.
 */
function settle(
  orm: MikroORM,
  claimed: ClaimedJob,
  identity: WorkerIdentity,
  change: (job: CoverageJob) => void,
): Promise<CoverageJob | null> {
  return asWorker(orm, claimed.tenantId, async (em) => {
    const job = await em.findOne(
      CoverageJob,
      { id: claimed.job.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!job || job.status !== CoverageJobStatus.RUNNING || job.currentAgentId !== identity.agentId) {
      return job;
    }
    change(job);
    await em.flush();
    return job;
  });
}

export function completeJob(orm: MikroORM, claimed: ClaimedJob, identity: WorkerIdentity, message: string) {
  return settle(orm, claimed, identity, (job) => {
    job.status = CoverageJobStatus.DONE;
    job.progress = 100;
    job.completed = new Date();
    job.message = message;
    job.currentAgentId = null;
  });
}

export function failJob(
  orm: MikroORM,
  claimed: ClaimedJob,
  identity: WorkerIdentity,
  message: string,
  settings: QueueSettings,
) {
  return settle(orm, claimed, identity, (job) => failureOf(job, message, settings, new Date()));
}

/** Records progress (and so renews the lease) without an event per report. */
export async function reportProgress(
  orm: MikroORM,
  claimed: ClaimedJob,
  identity: WorkerIdentity,
  percent: number,
): Promise<void> {
  await asWorker(orm, claimed.tenantId, (em) =>
    em.nativeUpdate(
      CoverageJob,
      { id: claimed.job.id, currentAgentId: identity.agentId },
      { progress: Math.max(0, Math.min(100, percent)), updated: new Date() },
    ),
  );
}
