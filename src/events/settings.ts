import { intFrom } from '../env-values';
import { pushSettings, type PushSettings } from './push/settings';

/** How events leave the service: read from the environment once (config.ts), passed to the worker and app. */
export interface EventSettings {
  /** Allows http and private, loopback and link-local targets (development and tests only). */
  allowPrivateTargets: boolean;
  /** Time allowed for one webhook request, connection to response. */
  timeoutMs: number;
  /** Attempts of one delivery, the first included, before it is marked FAILED. */
  maxAttempts: number;
  /** Delay after the first failed attempt; it doubles after each further one, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** An endpoint whose deliveries have all failed for this long is turned off. */
  disableAfterMs: number;
  /** After a secret rotation, deliveries are signed with the old secret too for this long. */
  secretGraceMs: number;
  /**
   * How long a claim holds a delivery without its process renewing it: a process that dies
   * mid-attempt leaves its deliveries to other workers after this long.
   */
  leaseMs: number;
  /**
   * Deliveries of one endpoint in flight at once, over all processes: the oldest this many
   * undelivered deliveries of an endpoint are the only ones that may be sent (1: strictly one at
   * a time, in order).
   */
  endpointConcurrency: number;
  /** Deliveries (webhooks and e-mail) one process makes at once. */
  concurrency: number;
  /**
   * Database connections of the worker's own for claiming and recording (PostgreSQL server only),
   * besides the process's pool: requests never make it wait for one. 0: it shares the pool.
   */
  connections: number;
  /** Failed attempts in a row after which an endpoint's circuit opens (nothing sent to it for a while). */
  circuitFailures: number;
  /** How long an idle worker waits before looking for work again. */
  pollIntervalMs: number;
  /**
   * The longest wait of a worker that keeps finding nothing: each empty look doubles the wait
   * from `pollIntervalMs` up to this; work found, or written by the process, starts it again.
   */
  idlePollMaxMs: number;
  /**
   * An endpoint whose attempts take at least this long (the median of its last few, or one still
   * running for several times this) is marked slow for a while: its lag is then the receiver's,
   * not counted against the tenant's writes (lag-bound.ts).
   */
  slowReceiverMs: number;
  /**
   * Writes of a tenant whose events the service holds back by more than this wait (0: no bound;
   * lag-bound.ts says what counts).
   */
  lagBoundMs: number;
  /** How long such a write waits for the lag to come under the bound before it is refused (429). */
  lagBoundWaitMs: number;
  /**
   * SMTP server for notification and invoice e-mail (nodemailer URL); unset: each message is
   * written to `mailDir` as an `.eml` file (to the log when that is unset too).
   */
  smtpUrl?: string;
  mailFrom: string;
  /** Where messages go without an SMTP server: `DATA_DIR/outbox-mail` (config.ts). */
  mailDir?: string;
  /** Web Push, FCM and APNs senders (push/settings.ts). */
  push: PushSettings;
  /** How often digests that are due are looked for: the `events.digests` job's period. */
  digestIntervalMs: number;
  /** The service's address as people reach it: digests link to `{publicUrl}/unsubscribe`. */
  publicUrl: string;
  /**
   * Signs the unsubscribe links of digests (a key derived from it, not the secret itself); the
   * service's JWT secret (serve.ts). Unset: digests are sent without a link.
   */
  linkSecret?: string;
}

export const RESPONSE_BODY_LIMIT = 4096;

export function eventSettings(env: NodeJS.ProcessEnv = process.env): EventSettings {
  return {
    allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    timeoutMs: intFrom(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS'),
    maxAttempts: Math.max(1, intFrom(env.WEBHOOK_MAX_ATTEMPTS, 14, 'WEBHOOK_MAX_ATTEMPTS')),
    retryBaseMs: intFrom(env.WEBHOOK_RETRY_BASE_MS, 30_000, 'WEBHOOK_RETRY_BASE_MS'),
    retryMaxMs: intFrom(env.WEBHOOK_RETRY_MAX_MS, 6 * 3600_000, 'WEBHOOK_RETRY_MAX_MS'),
    disableAfterMs: intFrom(env.WEBHOOK_DISABLE_AFTER_MS, 24 * 3600_000, 'WEBHOOK_DISABLE_AFTER_MS'),
    secretGraceMs: intFrom(env.WEBHOOK_SECRET_GRACE_MS, 24 * 3600_000, 'WEBHOOK_SECRET_GRACE_MS'),
    leaseMs: Math.max(500, intFrom(env.EVENT_LEASE_MS, 5000, 'EVENT_LEASE_MS')),
    endpointConcurrency: Math.max(
      1,
      intFrom(env.WEBHOOK_ENDPOINT_CONCURRENCY, 16, 'WEBHOOK_ENDPOINT_CONCURRENCY'),
    ),
    concurrency: Math.max(1, intFrom(env.EVENT_DELIVERY_CONCURRENCY, 64, 'EVENT_DELIVERY_CONCURRENCY')),
    connections: Math.max(0, intFrom(env.EVENT_DB_CONNECTIONS, 3, 'EVENT_DB_CONNECTIONS')),
    circuitFailures: Math.max(1, intFrom(env.WEBHOOK_CIRCUIT_FAILURES, 5, 'WEBHOOK_CIRCUIT_FAILURES')),
    pollIntervalMs: intFrom(env.EVENT_POLL_INTERVAL_MS, 1000, 'EVENT_POLL_INTERVAL_MS'),
    idlePollMaxMs: intFrom(env.EVENT_IDLE_POLL_MAX_MS, 10_000, 'EVENT_IDLE_POLL_MAX_MS'),
    slowReceiverMs: Math.max(1, intFrom(env.WEBHOOK_SLOW_MS, 500, 'WEBHOOK_SLOW_MS')),
    lagBoundMs: Math.max(0, intFrom(env.EVENT_LAG_BOUND_MS, 750, 'EVENT_LAG_BOUND_MS')),
    lagBoundWaitMs: Math.max(0, intFrom(env.EVENT_LAG_BOUND_WAIT_MS, 5000, 'EVENT_LAG_BOUND_WAIT_MS')),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'notifications@localhost',
    push: pushSettings(env),
    digestIntervalMs: Math.max(1000, intFrom(env.DIGEST_INTERVAL_MS, 15 * 60_000, 'DIGEST_INTERVAL_MS')),
    publicUrl: (env.PUBLIC_URL || `http://${env.HOST || '127.0.0.1'}:${env.PORT || '4000'}`).replace(
      /\/+$/,
      '',
    ),
  };
}

/** The delay before attempt `attempts + 1`: doubling from the base, capped, with ±20% jitter. */
export function retryDelay(settings: EventSettings, attempts: number, random = Math.random): number {
  const plain = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(plain * (0.8 + 0.4 * random()));
}

let active: EventSettings | undefined;

/** Settings the service runs with (serve.ts sets them from its configuration). */
export function useEventSettings(settings: EventSettings): void {
  active = settings;
}

/** The settings in force: those set by useEventSettings, else read from the environment once. */
export const activeEventSettings = (): EventSettings => (active ??= eventSettings(process.env));
