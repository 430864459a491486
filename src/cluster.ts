import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { printBanner } from './banner';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { createLogger } from './logger';
import { serveClusterMetrics } from './observability/cluster-metrics';
import { portProblem } from './port-probe';
import type { StopSignals } from './stop-signals';
import { ormComposition } from './orm-composition';

/**
 * The primary of WEB_CONCURRENCY worker processes (node:cluster): it migrates the database once,
 * before any worker serves, then forks the workers, which share the listening port and each run
 * src/serve.ts's `serve` (requests, the coverage job worker, the event worker and the key
 * clean-up: all of them claim work with row locks, so they share it without doing anything
 * twice). A worker that dies unexpectedly is replaced. SIGTERM or SIGINT asks every worker to stop
 * gracefully (each finishes its requests and jobs) and exits 0 once all have, 1 if one did not.
 */
const FORCE_AFTER_MS = 28_000;
/** A worker dying again within this of its start is replaced after RESTART_DELAY_MS. */
const CRASH_LOOP_MS = 5_000;
const RESTART_DELAY_MS = 1_000;

export async function runCluster(config: Config, stops: StopSignals): Promise<void> {
  const logger = createLogger(config.logLevel).child({ primary: process.pid });
  const problem = await portProblem(config.host, config.port);
  if (problem) throw new Error(problem);
  try {
    const db = await openDatabase(config, { composition: ormComposition, logger, signal: stops.abortSignal });
    await db.close();
  } catch (err) {
    if (!stops.stopRequested) throw err;
    logger.info({ signal: stops.stopRequested, during: 'start-up' }, 'stopped');
    process.exit(0);
  }
  // Workers run this same entry point (main), whatever script started this process.
  cluster.setupPrimary({ exec: path.join(__dirname, `main${path.extname(__filename)}`) });

  const started = new Map<Worker, number>();
  let ready = 0;
  let allReady = false;
  let stopping = false;
  let failed = false;

  const fork = () => started.set(cluster.fork(), Date.now());

  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: started.size }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('workers did not stop within 28 s; killing them');
      for (const w of started.keys()) w.process.kill('SIGKILL');
      process.exit(1);
    }, FORCE_AFTER_MS);
    force.unref();
    for (const w of started.keys()) if (!w.isDead()) w.process.kill('SIGTERM');
    if (started.size === 0) process.exit(failed ? 1 : 0);
  };

  cluster.on('listening', (worker) => {
    if (allReady) {
      logger.info({ worker: worker.id }, 'replacement worker listening');
      return;
    }
    ready += 1;
    if (ready === config.webConcurrency) {
      allReady = true;
      const base = `http://${config.host}:${config.port}`;
      logger.info({ url: base, workers: ready }, 'all workers listening');
      printBanner(base);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0;
    started.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      if (started.size === 0) {
        logger.info('stopped');
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    if (!allReady) {
      // A worker that cannot start (port in use, database unreachable) said why on stderr;
      // the others would fail alike.
      failed = true;
      stopAll('SIGTERM');
      return;
    }
    logger.warn({ worker: worker.id, code, signal }, 'worker died; starting another');
    if (Date.now() - since < CRASH_LOOP_MS) setTimeout(() => stopping || fork(), RESTART_DELAY_MS);
    else fork();
  });

  // A scrape of /metrics, on whichever worker, answers the sum over all of them.
  serveClusterMetrics();
  stops.handOver(stopAll);
  for (let i = 0; i < config.webConcurrency; i++) fork();
}
