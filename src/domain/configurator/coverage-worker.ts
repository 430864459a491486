import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { MikroORM } from '@mikro-orm/core';
import { classify } from '../../error-mapping';
import { IDLE_POLL_MAX_MS, pollQueue } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import type { CoverageJobStatus } from './entities/coverage-job';
import { calculateCoverage } from './coverage-calculation';
import {
  asWorker,
  claimNextJob,
  completeJob,
  failJob,
  reportProgress,
  type QueueSettings,
  type WorkerIdentity,
} from './coverage-queue';

export interface CoverageWorkerOptions extends Partial<QueueSettings> {
  /** Shown as the jobs' workerName; default `coverage-worker@<host>:<pid>`. */
  workerName?: string;
  /**
   * The wait before looking for due jobs again after a look that found one (default 500 ms); it
   * doubles after each look that found none, up to `idlePollMaxMs` (default 30 s).
   */
  pollIntervalMs?: number;
  idlePollMaxMs?: number;
}

export interface JobOutcome {
  tenantId: string;
  jobId: string;
  status: CoverageJobStatus;
}

export interface CoverageWorker {
  agentId: string;
  /** Claims and runs one due job; null when none is due. */
  runOnce(): Promise<JobOutcome | null>;
  /** Stops polling and waits for the job in hand to end. */
  stop(): Promise<void>;
}

const DEFAULTS: QueueSettings = { maxRetries: 3, backoffMs: 30_000, leaseMs: 10 * 60_000 };

const identityOf = (options: CoverageWorkerOptions): WorkerIdentity => ({
  agentId: randomUUID(),
  workerName: options.workerName ?? `coverage-worker@${hostname()}:${process.pid}`,
});

function settingsOf(options: CoverageWorkerOptions): QueueSettings {
  return {
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
    leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
  };
}

/**
 * Runs one due coverage job of any tenant, if there is one: claims it, calculates the coverage
 * as the job's tenant, and ends it DONE, or (on failure) PENDING again with a later runAfter, or
 * FAILED once its retries are used up. The failure's message is kept on the job; unexpected
 * errors are logged and recorded without internals.
 */
export async function runCoverageJobOnce(
  orm: MikroORM,
  logger: Logger,
  options: CoverageWorkerOptions = {},
  identity: WorkerIdentity = identityOf(options),
): Promise<JobOutcome | null> {
  const settings = settingsOf(options);
  const claimed = await claimNextJob(orm, identity, settings);
  if (!claimed) return null;
  const { tenantId, job } = claimed;
  const outcome = (status: CoverageJobStatus): JobOutcome => ({ tenantId, jobId: job.id, status });
  if (job.currentAgentId !== identity.agentId) return outcome(job.status);

  const log = logger.child({ jobId: job.id, tenantId, typeId: job.typeId, staticModelId: job.staticModelId });
  log.info('coverage job started');
  try {
    const summary = await calculateCoverage(
      (work) => asWorker(orm, tenantId, work),
      job.typeId,
      job.staticModelId,
      (percent) => reportProgress(orm, claimed, identity, percent),
    );
    const done = await completeJob(orm, claimed, identity, summary);
    log.info({ status: done?.status }, 'coverage job ended');
    return outcome(done?.status ?? job.status);
  } catch (err) {
    const { detail, expected } = classify(err);
    if (!expected) log.error({ err }, 'coverage job failed unexpectedly');
    const failed = await failJob(
      orm,
      claimed,
      identity,
      expected ? detail : 'internal error while calculating the coverage',
      settings,
    );
    log.warn({ status: failed?.status, retries: failed?.retries, detail }, 'coverage job failed');
    return outcome(failed?.status ?? job.status);
  }
}

/**
 * Starts a worker that keeps taking due coverage jobs of every tenant until stopped. The queue
 * lives in PostgreSQL; polling is only how an idle worker notices new rows, less and less often
 * while it finds none (jobs/periodic.ts), and at once when this process queues a job. Errors
 * reaching the loop (database unavailable) are logged and count as a look that found nothing; a
 * job left RUNNING by them is taken over once its lease runs out.
 */
export function startCoverageWorker(
  orm: MikroORM,
  logger: Logger,
  options: CoverageWorkerOptions = {},
): CoverageWorker {
  const identity = identityOf(options);
  const log = logger.child({ worker: identity.workerName, agentId: identity.agentId });
  const runOnce = () => runCoverageJobOnce(orm, log, options, identity);
  const polling = pollQueue(
    'coverage',
    { firstMs: options.pollIntervalMs ?? 500, maxMs: options.idlePollMaxMs ?? IDLE_POLL_MAX_MS },
    log,
    'coverage worker could not claim or settle a job',
    async () => (await runOnce()) !== null,
  );
  log.info('coverage worker started');

  return {
    agentId: identity.agentId,
    runOnce,
    async stop() {
      await polling.stop();
      log.info('coverage worker stopped');
    },
  };
}
