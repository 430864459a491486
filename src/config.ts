import { availableParallelism } from 'node:os';
import path from 'node:path';
import { eventSettings, type EventSettings } from './events/settings';
import { intFrom } from './env-values';
import { DEFAULT_RECEIVE_TIMEOUT_SECONDS } from './http/slow-clients';
import { fileSettings, type FileSettings } from './files/settings';
import { DEFAULT_TICK_MS } from './jobs/job';

/**
 * The service's settings from its environment, read once at start-up. A few modules read
 * `process.env` themselves (docs/architecture.md, "Layout and request path", lists them).
 */
export interface Config {
  production: boolean;
  port: number;
  host: string;
  /** PostgreSQL server URL; undefined means the embedded PGlite database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Explicit secret from JWT_SECRET; in embedded mode a generated one is used when unset. */
  jwtSecret?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  logLevel: string;
  /** Connections in the pool when running on a PostgreSQL server. */
  poolSize: number;
  /** Browser origins allowed by CORS (`*` for any). */
  corsOrigins: string[];
  /**
   * Requests per minute per credential and per tenant; refused credentials per 15 minutes per
   * address and per API key (http/credential-failures.ts); 0 turns a limit off.
   */
  rateLimits: {
    perCredential: number;
    perTenant: number;
    windowMs: number;
    failuresPerAddress: number;
    failuresPerKey: number;
    publicPerAddress: number;
    publicPerWidget: number;
  };
  /** GraphQL introspection and the Sandbox page (default: on outside production). */
  graphqlIntrospection: boolean;
  /** Webhooks, notification e-mail and the event worker (events/settings.ts). */
  events: EventSettings;
  /** Worker processes (node:cluster); 1 serves from this process alone. */
  webConcurrency: number;
  /** Redis for state every process shares (rate limits); unset keeps it in this process. */
  redisUrl?: string;
  /** Prefix of this deployment's keys in Redis. */
  redisKeyPrefix: string;
  /** Seconds a request's headers and body may take to arrive before it is answered 408. */
  receiveTimeoutSeconds: number;
  /** Stored files: the backend and the tenants' default limits (files/settings.ts). */
  files: FileSettings;
  /**
   * How often each process's scheduler wakes to claim and run the scheduled jobs that are due
   * (jobs/scheduler.ts): a job runs at most this long after its period starts.
   */
  jobsTickMs: number;
  /**
   * The key that encrypts the passwords of the tenants' IMAP mailboxes (MAILBOX_SECRET_KEY, 32
   * bytes as 64 hex digits or base64); unset, no mailbox can be configured.
   */
  mailboxSecretKey?: Buffer;
}

/** Where e-mail is kept as `.eml` files when no SMTP server is configured (`bms mail` lists them). */
export const outboxMailDir = (dataDir: string): string => path.join(dataDir, 'outbox-mail');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL || undefined;
  const jwtSecret = env.JWT_SECRET || undefined;
  if ((databaseUrl || production) && !jwtSecret) {
    throw new Error('JWT_SECRET is required with DATABASE_URL or NODE_ENV=production (at least 32 bytes)');
  }
  if (jwtSecret && Buffer.byteLength(jwtSecret) < 32) {
    throw new Error('JWT_SECRET must be at least 32 bytes long');
  }
  const redisUrl = env.REDIS_URL || undefined;
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const rateLimits = {
    perCredential: intFrom(env.RATE_LIMIT_PER_CREDENTIAL, 1200, 'RATE_LIMIT_PER_CREDENTIAL'),
    perTenant: intFrom(env.RATE_LIMIT_PER_TENANT, 6000, 'RATE_LIMIT_PER_TENANT'),
    publicPerAddress: intFrom(env.PUBLIC_RATE_LIMIT_PER_ADDRESS, 30, 'PUBLIC_RATE_LIMIT_PER_ADDRESS'),
    publicPerWidget: intFrom(env.PUBLIC_RATE_LIMIT_PER_WIDGET, 300, 'PUBLIC_RATE_LIMIT_PER_WIDGET'),
    windowMs: 60_000,
    failuresPerAddress: intFrom(env.AUTH_FAILURES_PER_ADDRESS, 30, 'AUTH_FAILURES_PER_ADDRESS'),
    failuresPerKey: intFrom(env.AUTH_FAILURES_PER_KEY, 100, 'AUTH_FAILURES_PER_KEY'),
  };
  return {
    production,
    port: intFrom(env.PORT, 4000, 'PORT'),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir,
    jwtSecret,
    jwtIssuer: env.JWT_ISSUER || undefined,
    jwtAudience: env.JWT_AUDIENCE || undefined,
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    poolSize: intFrom(env.DB_POOL_SIZE, 10, 'DB_POOL_SIZE'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    rateLimits,
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION ? env.GRAPHQL_INTROSPECTION === 'true' : !production,
    events: { ...eventSettings(env), mailDir: outboxMailDir(dataDir) },
    webConcurrency: webConcurrency(env.WEB_CONCURRENCY, { databaseUrl, redisUrl, rateLimits }),
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'bms:',
    receiveTimeoutSeconds: receiveTimeout(env.REQUEST_RECEIVE_TIMEOUT),
    files: fileSettings(env, dataDir),
    jobsTickMs: jobsTick(env.JOBS_TICK_MS),
    mailboxSecretKey: mailboxSecretKey(env),
  };
}

/**
 * MAILBOX_SECRET_KEY as the AES-256 key it names: 64 hex digits or the base64 of 32 bytes; unset
 * is undefined, anything else refuses to start (a key cut short would encrypt nothing safely).
 */
export function mailboxSecretKey(env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  const value = env.MAILBOX_SECRET_KEY?.trim();
  if (!value) return undefined;
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32)
    throw new Error(
      'MAILBOX_SECRET_KEY must be 32 bytes: 64 hex digits or their base64 (openssl rand -hex 32)',
    );
  return key;
}

/** JOBS_TICK_MS: at least a second (the scheduler's statements come at most this often). */
function jobsTick(value: string | undefined): number {
  const ms = intFrom(value, DEFAULT_TICK_MS, 'JOBS_TICK_MS');
  if (ms < 1000) throw new Error(`JOBS_TICK_MS must be at least 1000 (milliseconds), got "${value}"`);
  return ms;
}

/** REQUEST_RECEIVE_TIMEOUT: whole seconds, at least 1 (0 would let a request stall forever). */
function receiveTimeout(value: string | undefined): number {
  const seconds = intFrom(value, DEFAULT_RECEIVE_TIMEOUT_SECONDS, 'REQUEST_RECEIVE_TIMEOUT');
  if (seconds < 1) throw new Error(`REQUEST_RECEIVE_TIMEOUT must be at least 1 (seconds), got "${value}"`);
  return seconds;
}

/**
 * WEB_CONCURRENCY, checked against what several processes need: a database server (the embedded
 * database is one process's), and rate limits they share, which need Redis. Without it the
 * default stays one process (so a plain start on a server behaves as before), and asking for
 * more is refused rather than letting each process count requests of its own.
 */
function webConcurrency(
  value: string | undefined,
  {
    databaseUrl,
    redisUrl,
    rateLimits,
  }: { databaseUrl?: string; redisUrl?: string; rateLimits: { perCredential: number; perTenant: number } },
): number {
  const limited = rateLimits.perCredential > 0 || rateLimits.perTenant > 0;
  const shareable = Boolean(databaseUrl) && (Boolean(redisUrl) || !limited);
  const workers = intFrom(value, shareable ? availableParallelism() : 1, 'WEB_CONCURRENCY');
  if (workers < 1) throw new Error(`WEB_CONCURRENCY must be at least 1, got "${value}"`);
  if (workers > 1 && !databaseUrl)
    throw new Error(
      `WEB_CONCURRENCY=${workers}: the embedded database serves one process; set DATABASE_URL to run several`,
    );
  if (workers > 1 && limited && !redisUrl)
    throw new Error(
      `WEB_CONCURRENCY=${workers}: processes share rate limits through Redis; set REDIS_URL (or RATE_LIMIT_PER_CREDENTIAL=0 and RATE_LIMIT_PER_TENANT=0)`,
    );
  return workers;
}
