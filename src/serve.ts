import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { EntityManager } from '@mikro-orm/core';
import { createApp, type App } from './app';
import { appJobs, appScheduled } from './app-modules';
import { resolveJwtSecret } from './auth/secret';
import { signToken, type JwtSettings } from './auth/jwt';
import type { Config } from './config';
import { printBanner, type DemoLine } from './banner';
import { kernelJobs } from './jobs/kernel-jobs';
import { JobScheduler } from './jobs/scheduler';
import { startExportJobs } from './jobs/tenant-exports';
import { connectSharedState, type SharedState } from './http/shared-store';
import { openDatabase, type Database } from './db/database';
import { Tenant } from './entities/tenant';
import { type User, UserStatus } from './entities/user';
import { bufferedStdout, createLogger, type Logger } from './logger';
import { startEventWorker } from './events/worker';
import { useEventSettings } from './events/settings';
import { embeddedVapidKeys } from './events/push/settings';
import { createTenant, findUserByEmail } from './services/provisioning';
import { missingFlags } from './runtime-flags';
import { checkNotStopped, type StopSignals } from './stop-signals';
import { addressProblem, portProblem } from './port-probe';
import { ormComposition } from './orm-composition';

/**
 * Serves in this process: alone, or as one worker of a cluster (whose primary migrated). A stop
 * asked for during start-up (`stops`) closes what was opened so far and ends the process with
 * exit 0 and "stopped".
 */
export async function serve(config: Config, stops: StopSignals): Promise<void> {
  // Web Push on the embedded database works from the first start: its keys are made once, under
  // DATA_DIR (with a database server they come from VAPID_* or Web Push is off).
  if (!config.events.push.web && !config.databaseUrl)
    config.events.push.web = embeddedVapidKeys(config.dataDir, process.env);
  // Digests' unsubscribe links are signed with a key derived from the service's secret.
  config.events.linkSecret ??= resolveJwtSecret(config);
  useEventSettings(config.events);
  const logger = createLogger(config.logLevel, bufferedStdout()).child(
    cluster.isWorker ? { workerProcess: cluster.worker!.id } : {},
  );
  const signal = stops.abortSignal;
  // What start-up has opened, closed in reverse order when it cannot finish.
  const opened: (() => Promise<unknown>)[] = [];
  const closeOpened = async () => {
    for (const close of opened.reverse()) await close().catch(() => undefined);
  };
  let started: Started;
  try {
    started = await startUp(config, logger, signal, opened);
  } catch (err) {
    await closeOpened();
    if (!stops.stopRequested) throw err;
    logger.info({ signal: stops.stopRequested, during: 'start-up' }, 'stopped');
    process.exit(0);
  }
  const { db, app, shared, demo } = started;
  // The modules' own background work (coverage jobs...), shared through their tables with every
  // other process.
  const moduleJobs = appJobs.map((job) => job.start(db.orm, logger, { files: app.files }));
  // Webhooks (and notification e-mail) go out from the outbox through this process and any other.
  const events = startEventWorker(db.orm, logger, config.events, app.metrics.observeAttempt, !db.embedded);
  // Time-based work, the kernel's (clean-ups, retention, purges, digests) and the modules': each
  // period runs once across every process, claimed in the database (jobs/scheduler.ts).
  const scheduler = new JobScheduler(
    db.orm,
    [
      ...kernelJobs({
        orm: db.orm,
        files: app.files,
        digestIntervalMs: config.events.digestIntervalMs,
        nudgeEvents: events.nudge,
      }),
      ...appScheduled,
    ],
    logger,
    { tickMs: config.jobsTickMs, observe: app.metrics.observeJobRun, files: app.files },
  ).start();
  // Tenant exports asked for over the API, written under DATA_DIR/exports.
  const exportJobs = startExportJobs(db.orm, app.files.backend, config.dataDir, logger);
  const base = `http://${config.host}:${config.port}`;
  logger.info({ url: base, embedded: db.embedded }, 'listening');
  const missing = missingFlags();
  if (missing.length)
    logger.info(
      { node: process.version, flags: missing },
      'this Node takes flags that make every request cheaper; start it with them (docs/deployment.md, "Runtime")',
    );
  if (cluster.isPrimary) printBanner(base, demo);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A last resort only: every step below ends by itself once its work is done.
    const force = setTimeout(() => {
      logger.error('shutdown did not finish within 25 s; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      // Requests in flight finish while new connections are refused, and the workers stop
      // claiming work (finishing what they hold); the pool closes only when all are done.
      await Promise.all([
        app.close(),
        ...moduleJobs.map((job) => job.stop()),
        events.stop(),
        scheduler.stop(),
        exportJobs.stop(),
      ]);
      await Promise.all([db.close(), shared?.close()]);
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  stops.handOver((signal) => void stop(signal));
}

interface Started {
  db: Database;
  app: App;
  shared?: SharedState;
  demo?: DemoLine;
}

/**
 * Start-up up to listening: the port (free, or one line and exit 1, before anything else), shared
 * state, the database (opened and migrated), the app, the demo tenant. Each part opened is added
 * to `opened`; a stop asked for (`signal`) ends it with StartStopped at the next step.
 */
async function startUp(
  config: Config,
  logger: Logger,
  signal: AbortSignal,
  opened: (() => Promise<unknown>)[],
): Promise<Started> {
  // A cluster's primary checked the port for its workers, which share it.
  if (cluster.isPrimary) {
    const problem = await portProblem(config.host, config.port);
    if (problem) throw new Error(problem);
  }
  checkNotStopped(signal);
  const shared = config.redisUrl
    ? await connectSharedState(config.redisUrl, config.redisKeyPrefix, logger)
    : undefined;
  if (shared) opened.push(() => shared.close());
  checkNotStopped(signal);
  // A first start on the embedded database spends most of a minute here, creating it.
  if (cluster.isPrimary)
    logger.info({ embedded: !config.databaseUrl }, 'opening the database and applying its migrations');
  const db = await openDatabase(config, {
    composition: ormComposition,
    migrate: cluster.isPrimary,
    logger,
    signal,
  });
  opened.push(() => db.close());
  checkNotStopped(signal);
  const jwt = { secret: resolveJwtSecret(config), issuer: config.jwtIssuer, audience: config.jwtAudience };
  const app = await createApp({
    orm: db.orm,
    jwt,
    logger,
    production: config.production,
    http: {
      corsOrigins: config.corsOrigins,
      rateLimits: { ...config.rateLimits, store: shared?.store },
      introspection: config.graphqlIntrospection,
      receiveTimeoutSeconds: config.receiveTimeoutSeconds,
      lagBound: { boundMs: config.events.lagBoundMs, maxWaitMs: config.events.lagBoundWaitMs },
    },
    files: config.files,
  });
  // Closed before the database: it holds connections of the pool.
  opened.splice(opened.length - 1, 0, () => app.close());
  checkNotStopped(signal);
  // The demo tenant exists before the first request can arrive.
  const demo = db.embedded && !config.production ? await demoTenant(db.orm.em, jwt) : undefined;
  checkNotStopped(signal);
  await listen(app.server, config.host, config.port);
  return { db, app, shared, demo };
}

/** Listens on host:port; an address that cannot be had is one line saying what to change. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      const problem = addressProblem(host, port, err);
      reject(problem ? new Error(problem) : err);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

const DEMO = { name: 'Demo', adminEmail: 'admin@demo.local', domain: 'demo.local' };

/**
 * The demo tenant of an embedded development database, with a token for its admin made on every
 * start (so a lost one costs a restart): created on an empty database; none when the database
 * holds other tenants only, or the demo admin is no longer active.
 */
async function demoTenant(em: EntityManager, jwt: JwtSettings) {
  const fork = em.fork({ clear: true });
  let found = await fork.findOne(
    Tenant,
    { owner: DEMO.adminEmail, domain: DEMO.domain },
    { filters: false, orderBy: { created: 'asc' } },
  );
  let admin: User | undefined;
  const created = !found;
  if (!found) {
    if ((await fork.count(Tenant, {}, { filters: false })) > 0) return undefined;
    ({ tenant: found, admin } = await createTenant(em, DEMO));
  } else {
    admin = await findUserByEmail(em, found.id, DEMO.adminEmail).catch(() => undefined);
    if (admin?.status !== UserStatus.ACTIVE) return undefined;
  }
  const token = signToken(jwt, { sub: admin.id, email: admin.email, tenantId: found.id }, '7d');
  return { created, tenantId: found.id, name: found.name, email: admin.email, token };
}
