import { Client, type ClientConfig } from 'pg';
import { Pool as TarnPool } from 'tarn';
import { parseDatabaseUrl, type DatabaseHost, type DatabaseTarget } from './database-url';

/**
 * Every connection the service holds to PostgreSQL is opened here: the request pool's (knex's,
 * through orm-bypass/bound-execute.ts), the event worker's own (`sessionPool`), the listening
 * connection (listener.ts) and the migration lock's (database.ts). Whatever holds one gets:
 *
 * - a connection that can never take the process down: node-postgres emits 'error' on a Client
 *   whose server ends the session (a restart, `pg_terminate_backend`, a failover), and an
 *   EventEmitter's 'error' with no listener is thrown out of the event loop. Each session has a
 *   listener for its whole life, idle or in use; the loss is reported to `onLost` once, and the
 *   statement in flight fails with the error (mapped to 503 with Retry-After for a request);
 * - the host list of a multi-host DATABASE_URL tried in turn, from the host that last served,
 *   keeping only a session of the kind the URL asks for (database-url.ts), so a new session after a
 *   failover finds the promoted standby;
 * - a refusal that says which hosts were tried and why, with SQLSTATE 08001 (libpq's "unable to
 *   establish a connection"), which the error mapping answers as 503.
 *
 * Reconnecting is the holder's: a pool opens a new session when one is next needed, a loop that
 * keeps one open waits with `Backoff` between tries.
 */
export interface Sessions {
  readonly target: DatabaseTarget;
  /**
   * A connected session. `config` adds to what the URL says (timeouts, type parsers, keep-alive);
   * `onLost` hears once of the session's end, or of its failure, whichever comes first (an end
   * this side asked for included).
   */
  open(config?: ClientConfig, onLost?: (err: Error) => void): Promise<Client>;
}

const LOST = Symbol('session lost');

/** Whether the session's connection has ended or failed (it must not be used again). */
export function isLost(client: Client): boolean {
  return (client as Client & { [LOST]?: Error })[LOST] !== undefined;
}

/** The reason given when no host could be used, as libpq's SQLSTATE. */
export class NoSessionError extends Error {
  readonly code = '08001';
}

/** One `Sessions` per URL and process, so every holder starts from the host that last served. */
const byUrl = new Map<string, Sessions>();

export function sessionsFor(url: string): Sessions {
  let sessions = byUrl.get(url);
  if (!sessions) byUrl.set(url, (sessions = createSessions(parseDatabaseUrl(url))));
  return sessions;
}

function createSessions(target: DatabaseTarget): Sessions {
  /** Where the next session starts looking: the host that served last. */
  let first = 0;
  const checked = target.sessionAttrs === 'read-write';

  const openOn = async (host: DatabaseHost, config: ClientConfig, onLost?: (err: Error) => void) => {
    const client = new Client({ ...config, connectionString: target.urlOf(host) });
    const lost = (err: Error) => {
      const held = client as Client & { [LOST]?: Error };
      if (held[LOST]) return;
      held[LOST] = err;
      onLost?.(err);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('Connection terminated')));
    try {
      await client.connect();
      if (checked) {
        const { rows } = await client.query<{ writable: boolean }>(
          `select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`,
        );
        if (!rows[0]?.writable) throw new Error('read-only (a standby, or read-only sessions)');
      }
      return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  };

  return {
    target,
    async open(config = {}, onLost) {
      // One host: its own error as it is (a refused connection, a bad password), as before.
      if (target.hosts.length === 1 && !checked) return openOn(target.hosts[0], config, onLost);
      const reasons: string[] = [];
      for (let i = 0; i < target.hosts.length; i++) {
        const at = (first + i) % target.hosts.length;
        const host = target.hosts[at];
        try {
          const client = await openOn(host, config, onLost);
          first = at;
          return client;
        } catch (err) {
          reasons.push(`${host.host}:${host.port}: ${(err as Error).message}`);
        }
      }
      throw new NoSessionError(
        `no host of ${target.label} gave a${checked ? ' read-write' : ''} session: ${reasons.join('; ')}`,
      );
    },
  };
}

/** A pool of sessions for a holder outside knex's (the event worker's own connections). */
export interface SessionPool {
  acquire(): Promise<Client>;
  /** Gives a session back; a lost one is closed rather than handed out again. */
  release(client: Client): void;
  end(): Promise<void>;
}

export function sessionPool(
  sessions: Sessions,
  options: { max: number; idleTimeoutMillis: number; acquireTimeoutMillis: number; config?: ClientConfig },
): SessionPool {
  // tarn is the pool knex uses (and so the request pool): min 0, so an idle process holds none
  // after idleTimeoutMillis; a failed connect is handed to the waiting acquire at once.
  const pool = new TarnPool<Client>({
    min: 0,
    max: options.max,
    idleTimeoutMillis: options.idleTimeoutMillis,
    acquireTimeoutMillis: options.acquireTimeoutMillis,
    propagateCreateError: true,
    create: () => sessions.open(options.config),
    destroy: (client) => client.end().catch(() => undefined),
    validate: (client) => !isLost(client),
  });
  return {
    acquire: () => pool.acquire().promise,
    release: (client) => void pool.release(client),
    async end() {
      await pool.destroy();
    },
  };
}

/**
 * Waits between tries to reach the database: `firstMs`, doubling up to `maxMs`, each wait with up
 * to a quarter more at random, so that processes that lost the database together do not all come
 * back in the same instant; `reset()` once a try succeeds.
 */
export class Backoff {
  private next: number;

  constructor(
    private readonly firstMs = 250,
    private readonly maxMs = 10_000,
  ) {
    this.next = firstMs;
  }

  /** The wait before the next try (and doubles the one after). */
  delay(): number {
    const ms = this.next;
    this.next = Math.min(this.maxMs, this.next * 2);
    return Math.round(ms * (1 + Math.random() / 4));
  }

  /** Whether the last try failed (a wait is due before the next). */
  get failing(): boolean {
    return this.next !== this.firstMs;
  }

  reset(): void {
    this.next = this.firstMs;
  }
}
