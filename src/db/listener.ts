import type { Client } from 'pg';
import type { Logger } from '../logger';
import { Backoff, sessionsFor } from './sessions';

/**
 * A dedicated PostgreSQL connection that LISTENs on some channels and hands every notification
 * to a callback, reconnecting (and listening again) whenever the connection is lost. It is kept
 * out of the ORM's pool: a listening session must stay open and idle, and notifications arrive
 * on the session that listens. Any module that needs to hear of changes committed by any service
 * process (live subscriptions, cache invalidation) can start one.
 *
 * Notifications sent while the connection is down are not replayed: a user of this module that
 * must not miss a change catches up from its source of truth in `onConnected`, which runs after
 * every (re)connection once the LISTENs are in place.
 */
export interface ListenerOptions {
  /** The database, as a connection URL (several hosts allowed: sessions.ts). */
  url: string;
  /** Channel names (plain identifiers: lower case, letters, digits and `_`). */
  channels: readonly string[];
  onNotification(channel: string, payload: string): void;
  onConnected?(reconnected: boolean): void;
  log: Logger;
  /** First delay before reconnecting; it doubles after each failed try, up to `retryMaxMs`. */
  retryMs?: number;
  retryMaxMs?: number;
}

export interface Listener {
  /** Resolves once the first LISTEN is in place (and never rejects: failures are retried). */
  readonly ready: Promise<void>;
  readonly connected: boolean;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export function startListener(options: ListenerOptions): Listener {
  for (const channel of options.channels)
    if (!CHANNEL.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  const backoff = new Backoff(options.retryMs ?? 250, options.retryMaxMs ?? 10_000);
  const sessions = sessionsFor(options.url);
  const log = options.log.child({ component: 'listener', channels: options.channels });
  let client: Client | undefined;
  let closed = false;
  let connected = false;
  let everConnected = false;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, backoff.delay());
  };

  const lost = (which: Client | undefined, err?: Error) => {
    // A session that failed while it was being opened is the opener's to retry.
    if (!which || which !== client) return;
    client = undefined;
    if (connected && !closed) log.warn({ err }, 'listening connection lost; reconnecting');
    connected = false;
    which.removeAllListeners('notification');
    which.end().catch(() => undefined);
    retry();
  };

  const connect = async () => {
    if (closed) return;
    let next: Client | undefined;
    try {
      // Keep-alive probes notice a peer that vanished without closing the connection.
      next = await sessions.open({ keepAlive: true }, (err) => lost(next, err));
    } catch (err) {
      if (!closed) log.warn({ err }, 'cannot listen yet; retrying');
      retry();
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    next.on('notification', (n) => {
      if (n.payload !== undefined) options.onNotification(n.channel, n.payload);
    });
    try {
      for (const channel of options.channels) await next.query(`LISTEN ${channel}`);
    } catch (err) {
      if (!closed && client === next) log.warn({ err }, 'cannot listen yet; retrying');
      lost(next, err as Error);
      return;
    }
    if (closed || client !== next) return;
    connected = true;
    backoff.reset();
    const reconnected = everConnected;
    everConnected = true;
    if (reconnected) log.info('listening again');
    markReady();
    options.onConnected?.(reconnected);
  };

  void connect();

  return {
    ready,
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const last = client;
      client = undefined;
      connected = false;
      markReady();
      if (last) {
        last.removeAllListeners('notification');
        await last.end().catch(() => undefined);
      }
    },
  };
}
