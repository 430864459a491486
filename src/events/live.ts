import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { authenticate } from '../auth/authenticate';
import { CALLER_CHANNEL, type CallerCache } from '../auth/caller-cache';
import type { JwtSettings } from '../auth/jwt';
import { trustedIssuers } from '../auth/issuers';
import { forgetIssuerUsers } from '../auth/issuer-users';
import {
  Loaders,
  type Caller,
  type Context,
  type LiveNotification as Notification,
  type LiveStreams,
} from '../context';
import { endTenantTransaction } from '../db/tenant-transaction';
import { entityClassesOf } from '../db/entity-classes';
import { startListener, type Listener } from '../db/listener';
import { classify } from '../error-mapping';
import { badRequest, forbidden, unauthorized } from '../errors';
import { FamilyService } from '../family/service';
import type { GroupDef } from '../family/group';
import type { Logger } from '../logger';
import { isWorkQueue, signalWork, WORK_CHANNEL } from './work-signals';
import { eventResources } from './catalog';
import { envelopeOf, type EventEnvelope } from './envelope';
import { PushQueue } from './push-queue';
import { EventReadability } from './readable';
import { markTenantLive } from './live-tenant-repository';
import { outboxEventsOf } from './outbox-repository';

/**
 * Live subscriptions: every service process LISTENs on the outbox's channel (a trigger NOTIFYs
 * `<tenant id>:<event id>,...` for the outbox rows each statement inserts, delivered by
 * PostgreSQL at commit). A process with subscribers in that tenant reads the events from the
 * outbox, the source of truth, and offers every one to each of its sessions (one per WebSocket)
 * of the tenant. A session checks its credential
 * afresh (the user still active, their current permissions) whenever the tenant's callers change
 * and before every event whose offer reads the database; the token's expiry closes it on time. It
 * holds each event to the same rules as queries (readable.ts).
 */
export const OUTBOX_CHANNEL = 'bms_outbox';

/** Close codes of the graphql-transport-ws protocol and WebSocket. */
export const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_GOING_AWAY = 1001;

const NOTIFICATION_CREATED = 'notification.created';
/** Event names a subscription may ask for: those of records with a history. */
interface LiveSubscription {
  wants(event: EventEnvelope): boolean;
  /** Its offer reads the database (in the caller's tenant transaction); else it needs only the caller. */
  reads?: boolean;
  offer(ctx: Context, event: EventEnvelope): Promise<void>;
  queue: PushQueue<unknown>;
}

/** One WebSocket's subscriptions, for one credential. */
export class LiveSession implements LiveStreams {
  private readonly subscriptions = new Set<LiveSubscription>();
  private chain: Promise<void> = Promise.resolve();
  private readonly expiry: NodeJS.Timeout;
  private ended = false;
  /** Payloads read for this session alone (a notification): their fields may read more. */
  private readonly ownPayloads = new WeakSet<object>();

  constructor(
    private readonly hub: LiveHub,
    private current: Caller,
    private readonly header: string,
    expiresAt: number,
    private readonly close: (code: number, reason: string) => void,
  ) {
    // The socket closes when the token expires, events or not (timers hold at most ~24.8 days).
    this.expiry = setTimeout(
      () => this.end(CLOSE_UNAUTHORIZED, 'the credential has expired'),
      Math.min(Math.max(0, expiresAt - Date.now()), 2 ** 31 - 1),
    );
    this.expiry.unref();
  }

  get tenantId(): string {
    return this.current.tenantId;
  }

  /** The caller as last checked (at the connection, then at each change to the tenant's callers). */
  get caller(): Caller {
    return this.current;
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** The context GraphQL runs this socket's operations with: no database work happens in it. */
  context(): Context {
    return {
      em: this.hub.orm.em.fork({ clear: true }),
      caller: this.caller,
      loaders: new Loaders(),
      requestId: randomUUID(),
      live: this,
    };
  }

  /** `recordChanged(types)`: unknown names are a 400, names of records the caller cannot read a 403. */
  records(ctx: Context, types: readonly string[] | null | undefined): AsyncIterable<EventEnvelope> {
    const wanted = types?.length ? new Set(types) : undefined;
    for (const type of wanted ?? []) {
      if (!this.hub.recordEvents.has(type)) throw badRequest(`types: ${type} is not an event name`);
      const resource = type.slice(0, type.lastIndexOf('.'));
      if (!this.hub.readable.mayReadResource(ctx, resource))
        throw forbidden(`types: you may not read ${resource} records`);
    }
    const sub = this.add({
      wants: (event) => this.hub.recordEvents.has(event.type) && (!wanted || wanted.has(event.type)),
      offer: async (eventCtx, event) => {
        if (this.hub.readable.mayReadEvent(eventCtx, event)) sub.queue.push(event);
      },
    });
    return sub.queue as PushQueue<EventEnvelope>;
  }

  /** `notificationAdded`: the caller's own notifications that reached their feed, as queries show them. */
  notifications(): AsyncIterable<Notification> {
    const sub = this.add({
      wants: (event) => event.type === NOTIFICATION_CREATED,
      reads: true,
      offer: async (ctx, event) => {
        if (!event.resource.id) return;
        const [found] = await this.hub.notifications.byIds(ctx, [event.resource.id], { detached: true });
        if (!found) return;
        this.ownPayloads.add(found);
        sub.queue.push(found);
      },
    });
    return sub.queue as PushQueue<Notification>;
  }

  /**
   * Runs the execution of a payload read for this session alone in a tenant transaction of the
   * caller, checked afresh, as a query's fields run in its request's: a notification's `events`,
   * `history` and any other field that reads find their tenant there. Undefined for a payload
   * shared by many sessions (an event's envelope), whose fields read nothing, so a fan-out takes
   * no transaction per socket.
   */
  executeOwn<R>(payload: object, execute: (ctx: Context) => Promise<R>): Promise<R> | undefined {
    return this.ownPayloads.has(payload) ? this.inTransaction(execute) : undefined;
  }

  private async inTransaction<R>(work: (ctx: Context) => Promise<R>): Promise<R> {
    const auth = await this.authenticated();
    if (!auth) throw unauthorized('the credential no longer holds');
    try {
      return await work({
        em: auth.em,
        caller: auth.caller,
        loaders: new Loaders(),
        requestId: randomUUID(),
        live: this,
      });
    } finally {
      await endTenantTransaction(auth.em, false);
    }
  }

  private add(kind: Omit<LiveSubscription, 'queue'>): LiveSubscription {
    const sub = { ...kind } as LiveSubscription;
    sub.queue = new PushQueue<unknown>(
      () => this.subscriptions.delete(sub),
      1000,
      () => this.end(CLOSE_GOING_AWAY, 'the client is not reading its events'),
    );
    this.subscriptions.add(sub);
    return sub;
  }

  /**
   * Events of this session's tenant, in the order written: handled in order, after the ones
   * before them, as one step (a batch costs the session one turn, not one per event).
   */
  offer(events: readonly EventEnvelope[]): void {
    if (this.ended) return;
    const relevant = events.filter((event) => this.concerns(event));
    if (relevant.length === 0) return;
    this.chain = this.chain
      .then(() => this.handle(relevant))
      .catch((err) =>
        this.hub.log.error({ err, eventIds: relevant.map((e) => e.id) }, 'live events not delivered'),
      );
  }

  /** A subscription wants it, or it is about the caller's own user (whose change is checked). */
  private concerns(event: EventEnvelope): boolean {
    if (event.resource.type === 'user' && event.resource.id === this.current.userId) return true;
    for (const sub of this.subscriptions) if (sub.wants(event)) return true;
    return false;
  }

  /**
   * Checks the credential again after a change to the tenant's users, roles, issuers or keys
   * (bms_caller), events or not: a signed-out user, a revoked key or a disabled user is closed
   * out within the notification's delay.
   */
  recheck(): void {
    if (this.ended) return;
    this.chain = this.chain
      .then(async () => {
        const auth = await this.authenticated();
        if (!auth) return;
        await endTenantTransaction(auth.em, false);
        this.current = auth.caller;
      })
      .catch((err) => this.hub.log.error({ err }, 'live credential not checked'));
  }

  /** The credential checked afresh; undefined (and the socket closed) when it no longer holds. */
  private async authenticated() {
    if (this.ended) return undefined;
    try {
      return await authenticate(this.hub.orm.em, this.hub.jwt, this.header, this.hub.callers);
    } catch (err) {
      const { status, detail } = classify(err);
      if (status === 401) return void this.end(CLOSE_UNAUTHORIZED, detail);
      throw err;
    }
  }

  private async handle(events: readonly EventEnvelope[]): Promise<void> {
    // The context of events that need no read, made once for the batch: the caller as last
    // checked (a recheck is a step of the chain of its own, so it cannot change within one).
    let heard: Context | undefined;
    for (const event of events) {
      if (this.ended) return;
      const aboutMe = event.resource.type === 'user' && event.resource.id === this.current.userId;
      const wanting = [...this.subscriptions].filter((s) => s.wants(event));
      if (this.hub.hearsCallers && !aboutMe && !wanting.some((s) => s.reads)) {
        // Nothing to read, and any change to the caller has been heard of (recheck()): the caller
        // as last checked holds, with no transaction per socket and event (a fan-out to every
        // socket of a tenant would otherwise take one each).
        heard ??= {
          em: this.hub.orm.em,
          caller: this.current,
          loaders: new Loaders(),
          requestId: randomUUID(),
        };
        for (const sub of wanting) if (!this.ended) await sub.offer(heard, event);
        continue;
      }
      const auth = await this.authenticated();
      if (!auth) return;
      const ctx: Context = {
        em: auth.em,
        caller: auth.caller,
        loaders: new Loaders(),
        requestId: randomUUID(),
      };
      try {
        for (const sub of this.subscriptions) if (sub.wants(event)) await sub.offer(ctx, event);
      } finally {
        await endTenantTransaction(auth.em, false);
      }
    }
  }

  /** Settles once the events being handled are done (for shutdown). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Ends every subscription; with a code, closes the socket too. */
  end(code?: number, reason = ''): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.expiry);
    for (const sub of [...this.subscriptions]) sub.queue.end();
    this.hub.remove(this);
    if (code !== undefined) this.close(code, reason);
  }
}

/**
 * How long a tenant's mark in `live_tenant` lasts, and how often a process holding sessions in
 * it pushes the mark forward: a process that dies stops counting within the mark's life.
 */
const LIVE_MARK_SECONDS = 90;
/** Event ids read from the outbox in one statement, at most (notified()). */
const LIVE_READ_BATCH = 500;
const LIVE_RENEW_MS = 30_000;

/**
 * A process's live sessions by tenant, fed from the outbox channel. Its listening connection
 * also hears of changed callers, for the process's caller cache (one connection for both).
 *
 * The outbox NOTIFYs a tenant's events only while the tenant is marked live (the NOTIFY makes
 * commits run one at a time: Migration20261123150000_live_tenants), so a session marks its
 * tenant before its connection is acknowledged, and the hub renews the marks of the tenants it
 * holds sessions in.
 */
export class LiveHub {
  private readonly byTenant = new Map<string, Set<LiveSession>>();
  private listener?: Listener;
  private chain: Promise<void> = Promise.resolve();
  /** Per tenant, the event ids of the read that waits its turn in `chain` (notified()). */
  private readonly queued = new Map<string, string[]>();
  private renewal?: NodeJS.Timeout;

  /** Who may read which event: the rules of the records' queries. */
  readonly readable: EventReadability;
  /** The notifications group's service: a notification event is answered as queries show it. */
  readonly notifications: FamilyService<Notification>;
  /** The event names of the records the ORM knows (events/catalog.ts), which a session may ask for. */
  readonly recordEvents: ReadonlySet<string>;

  constructor(
    readonly orm: MikroORM,
    readonly jwt: JwtSettings,
    readonly log: Logger,
    groups: { all: readonly GroupDef[]; notifications: GroupDef<Notification> },
    readonly callers?: CallerCache,
  ) {
    this.readable = new EventReadability(groups.all);
    this.notifications = new FamilyService(groups.notifications);
    this.recordEvents = new Set(eventResources(entityClassesOf(orm)).flatMap((r) => r.events));
  }

  /** Starts listening; waits up to `waitMs` for the first LISTEN (later failures are retried). */
  async start(url: string, waitMs = 10_000): Promise<void> {
    this.listener = startListener({
      url,
      channels: this.callers
        ? [OUTBOX_CHANNEL, CALLER_CHANNEL, WORK_CHANNEL]
        : [OUTBOX_CHANNEL, WORK_CHANNEL],
      log: this.log,
      onNotification: (channel, payload) => {
        // Work queued by any process: this one's idle queue loops look at once.
        if (channel === WORK_CHANNEL) return void (isWorkQueue(payload) && signalWork(payload));
        if (channel !== CALLER_CHANNEL) return this.notified(payload);
        this.callers?.notified(payload);
        trustedIssuers.notified();
        forgetIssuerUsers();
        for (const [tenantId, sessions] of this.byTenant)
          if (payload === '*' || payload === tenantId) for (const session of sessions) session.recheck();
      },
      // Changes made while the connection was down were not heard of.
      onConnected: (reconnected) => {
        if (!reconnected) return;
        this.callers?.clear();
        for (const sessions of this.byTenant.values()) for (const session of sessions) session.recheck();
      },
    });
    this.renewal = setInterval(() => {
      for (const tenantId of this.byTenant.keys())
        this.markLive(tenantId).catch((err) =>
          this.log.error({ err, tenantId }, 'the live mark of a tenant could not be renewed'),
        );
    }, LIVE_RENEW_MS);
    this.renewal.unref();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.listener.ready, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    if (!this.listener.connected) this.log.warn('live subscriptions wait for their database connection');
  }

  /** A session for a `connection_init`'s credential; a bad one throws a 401. */
  async open(header: unknown, close: (code: number, reason: string) => void): Promise<LiveSession> {
    const authorization = typeof header === 'string' ? header : undefined;
    const { em, caller, expiresAt } = await authenticate(this.orm.em, this.jwt, authorization, this.callers);
    await endTenantTransaction(em, false);
    // Committed before the connection is acknowledged: every change committed after the client's
    // subscription is notified.
    await this.markLive(caller.tenantId);
    const session = new LiveSession(this, caller, authorization!, expiresAt, close);
    let sessions = this.byTenant.get(caller.tenantId);
    if (!sessions) this.byTenant.set(caller.tenantId, (sessions = new Set()));
    sessions.add(session);
    return session;
  }

  remove(session: LiveSession): void {
    const sessions = this.byTenant.get(session.tenantId);
    sessions?.delete(session);
    if (sessions?.size === 0) this.byTenant.delete(session.tenantId);
  }

  /**
   * Whether the hub hears of every change to callers (the caller cache's channel): then a session
   * checks its caller at each such change rather than at each event.
   */
  get hearsCallers(): boolean {
    return this.callers !== undefined;
  }

  /** Subscriptions open on this process (for metrics and tests). */
  get subscriptionCount(): number {
    let n = 0;
    for (const sessions of this.byTenant.values()) for (const s of sessions) n += s.subscriptionCount;
    return n;
  }

  private markLive(tenantId: string): Promise<unknown> {
    return markTenantLive(this.orm, tenantId, LIVE_MARK_SECONDS);
  }

  /** `<tenant id>:<event id>,<event id>,...`: one inserting statement's events of one tenant. */
  private notified(payload: string): void {
    const [tenantId, list] = payload.split(':');
    const ids = list ? list.split(',') : [];
    // Only a process with subscribers in the tenant reads the events.
    if (ids.length === 0 || !this.byTenant.has(tenantId)) return;
    // Notifications heard while a read of the tenant's events waits its turn join that read:
    // under load the batches grow, and each batch is one statement and one turn per session,
    // whose messages to a socket go out in one write (subscriptions.ts).
    const queued = this.queued.get(tenantId);
    if (queued && queued.length + ids.length <= LIVE_READ_BATCH) {
      queued.push(...ids);
      return;
    }
    const batch = [...ids];
    this.queued.set(tenantId, batch);
    this.chain = this.chain
      .then(() => {
        if (this.queued.get(tenantId) === batch) this.queued.delete(tenantId);
        return this.dispatch(tenantId, batch);
      })
      .catch((err) => this.log.error({ err, eventIds: batch }, 'live events could not be read'));
  }

  private async dispatch(tenantId: string, ids: string[]): Promise<void> {
    if (!this.byTenant.has(tenantId)) return;
    const rows = await outboxEventsOf(this.orm, tenantId, ids);
    // In the order the events were written, as the notifications list them; one object per
    // event for every session (shared-results.ts executes it once per document).
    const byId = new Map(rows.map((row) => [row.id, row]));
    const events = ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [envelopeOf(row)] : [];
    });
    if (events.length === 0) return;
    for (const session of this.byTenant.get(tenantId) ?? []) session.offer(events);
  }

  /** Ends every session (the sockets close with 1001) and stops listening. */
  async close(): Promise<void> {
    const all = [...this.byTenant.values()].flatMap((sessions) => [...sessions]);
    clearInterval(this.renewal);
    for (const session of all) session.end(CLOSE_GOING_AWAY, 'the service is stopping');
    await this.listener?.close();
    // What is being handled finishes before the pool it uses closes.
    await Promise.all([this.chain, ...all.map((s) => s.settled())]);
  }
}
