import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { serviceLag } from './delivery-repository';

/** The bound on a tenant's writes while the service holds its events back (docs/events.md). */
export interface LagBoundSettings {
  /** Writes wait while the tenant's service lag is above this (ms); 0: no bound. */
  boundMs: number;
  /** A write waits at most this long for the lag to come under the bound, then is refused. */
  maxWaitMs: number;
}

/** What the bound tells the metrics. */
export interface LagBoundObserver {
  /** A write had to wait (`refused`: and the lag stayed over the bound for the whole wait). */
  (outcome: 'held' | 'refused'): void;
}

/** How often the lag is read while writes arrive: a few times within the bound. */
const readInterval = (settings: LagBoundSettings) => Math.min(250, Math.max(50, settings.boundMs / 4));

/**
 * After this long without a write, a tenant is no longer read for; once none is left, the process
 * stops reading (an idle service does not poll).
 */
const WRITER_MEMORY_MS = 10_000;

/**
 * Holds a tenant's writes while the service is behind with its events: the lag the service causes
 * (serviceLag: the receivers' own slowness and failures left out) is read from the database, for
 * the tenants that wrote lately, every few hundred milliseconds while writes arrive, so every
 * process sees what every other delivers. A write of a tenant over the bound waits for the next
 * reading under it, up to `maxWaitMs`; reads and other tenants never wait.
 */
export class LagBound {
  /** Each writing tenant's service lag (ms) as last read. */
  private readonly lags = new Map<string, number>();
  /** When each tenant last wrote (or waited to). */
  private readonly writers = new Map<string, number>();
  private reading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiting = new Set<() => void>();
  private readonly interval: number;
  private stopped = false;

  constructor(
    private readonly orm: MikroORM,
    readonly settings: LagBoundSettings,
    private readonly logger: Logger,
    private readonly observe?: LagBoundObserver,
  ) {
    this.interval = readInterval(settings);
  }

  get on(): boolean {
    return this.settings.boundMs > 0;
  }

  /** The largest service lag (seconds) among the tenants writing now, as last read. */
  get largestSeconds(): number {
    return Math.max(0, ...this.lags.values()) / 1000;
  }

  /** Tenants whose writes are over the bound now, as last read. */
  get tenantsOver(): number {
    return [...this.lags.values()].filter((ms) => ms > this.settings.boundMs).length;
  }

  /** Seconds a refused write is told to wait before trying again. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.settings.maxWaitMs / 1000));
  }

  /**
   * Whether a write of `tenantId` may go now, by the last reading (`unread`: this process has no
   * reading of the tenant yet, its first write after a quiet spell). It is called with the
   * request's transaction open and never waits: the embedded database has one connection.
   */
  check(tenantId: string): 'under' | 'over' | 'unread' {
    if (!this.on) return 'under';
    this.writers.set(tenantId, Date.now());
    this.keepReading();
    const lag = this.lags.get(tenantId);
    if (lag === undefined) return 'unread';
    return lag <= this.settings.boundMs ? 'under' : 'over';
  }

  /**
   * Waits until `tenantId` is under the bound (true) or `maxWaitMs` has passed (false), reading
   * it first if it was unread. Counted as held only when it has to wait.
   */
  async waitUnder(tenantId: string): Promise<boolean> {
    // A reading under way when the tenant arrived did not ask for it: the next one does.
    for (let i = 0; i < 2 && !this.lags.has(tenantId); i++) await this.read();
    const under = () => (this.lags.get(tenantId) ?? 0) <= this.settings.boundMs;
    if (under()) return true;
    this.observe?.('held');
    const until = Date.now() + this.settings.maxWaitMs;
    for (;;) {
      this.writers.set(tenantId, Date.now());
      if (under()) return true;
      const left = until - Date.now();
      if (left <= 0) break;
      await this.nextReading(left);
    }
    this.observe?.('refused');
    return false;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const wake of [...this.waiting]) wake();
  }

  private nextReading(ms: number): Promise<void> {
    this.keepReading();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const waiting = this.waiting;
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });
  }

  private keepReading(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read().then(() => {
        if (this.writers.size > 0 || this.waiting.size > 0) this.keepReading();
      });
    }, this.interval);
    this.timer.unref();
  }

  private read(): Promise<void> {
    this.reading ??= (async () => {
      const now = Date.now();
      for (const [tenant, at] of this.writers)
        if (now - at > WRITER_MEMORY_MS) {
          this.writers.delete(tenant);
          this.lags.delete(tenant);
        }
      try {
        const seconds = await serviceLag(this.orm, [...this.writers.keys()]);
        this.lags.clear();
        for (const [tenant, s] of seconds) this.lags.set(tenant, s * 1000);
      } catch (err) {
        // Writes pass rather than fail while the lag cannot be read: the bound protects the
        // receivers' timeliness, and refusing every write would be the greater harm.
        this.lags.clear();
        this.logger.warn({ err }, 'the service lag of events could not be read');
      } finally {
        this.reading = undefined;
        for (const wake of [...this.waiting]) wake();
      }
    })();
    return this.reading;
  }
}
