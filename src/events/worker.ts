import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LRUCache } from 'lru-cache';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { Backoff } from '../db/sessions';
import {
  claimEmails,
  claimerOf,
  claimWebhooks,
  plainSuccesses,
  recordAndClaimWebhooks,
  recordAttempts,
  markSlow,
  releaseClaims,
  renewLeases,
  type Attempt,
  type Channel,
  type Claim,
} from './delivery-repository';
import { composeDigest, digestContent, unsubscribeLink } from './digest';
import { PushSenders, SERVICE_OF } from './push';
import type { PushNotice } from './push/payload';
import { configuredPlatforms } from './push/settings';
import { envelopeOf, type OutboxRecord } from './envelope';
import { onOutboxWrites } from './outbox';
import { postWebhook, sizeAgents } from './http-post';
import type { EventSettings } from './settings';
import { signedHeaders } from './signing';
import { asEventWorker, ownConnections } from './store';
import { dispatchBatch, insertNotificationEmails, insertNotificationPushes } from './outbox-repository';
import { deletePushToken, notificationMail, pushOf } from './notification-repository';
import { createMailer, type Mailer, type MailMessage } from './mail';

/**
 * The event worker: fans committed outbox rows out to deliveries, and hands deliveries to their
 * receivers, at least once. Any number of service processes run one; they share the work through
 * FOR UPDATE SKIP LOCKED, as the coverage job queue does (src/domain/configurator/coverage-queue.ts):
 *
 * - dispatch: claims a batch of undispatched outbox rows, inserts a PENDING delivery for every
 *   active endpoint of the row's tenant whose `events` match (and, for created notifications, an
 *   e-mail and a push per device as the recipient's settings allow), and marks the rows
 *   dispatched, all in one transaction;
 * - digests: the DIGEST deliveries the `events.digests` scheduled job inserts (digest.ts,
 *   src/jobs/kernel-jobs.ts), sent like e-mail;
 * - delivery: claims a batch of due deliveries (webhooks within their endpoint's window, see
 *   delivery-repository.ts; e-mail, push and digests by due time), each under a short lease, and commits; then makes the
 *   attempts at once, outside any transaction, up to `concurrency` in flight, renewing the leases
 *   while they run; attempts are recorded in batches. A worker that dies mid-attempt stops
 *   renewing, its leases run out within `leaseMs`, and the deliveries are tried again.
 */

const DISPATCH_BATCH = 500;
/**
 * How soon the dispatch loop looks again, rather than after the poll interval, for one poll
 * interval after its process wrote events: a write's event is dispatched within this of its
 * commit, not up to a whole poll interval after it (that was most of a busy endpoint's lag).
 */
const DISPATCH_SOON_MS = 100;
/** Claims and records are batched up to this many deliveries a statement. */
const BATCH = 100;
/** How long a finished attempt waits for others to end before it is recorded (see record()). */
const GATHER_MS = 5;
/**
 * How long one late answer marks its endpoint slow (every process reads the mark): long enough
 * that a slow receiver, answered at least every few seconds, stays marked between its answers;
 * short enough that one that speeds up counts again within half a minute.
 */
export const SLOW_MARK_MS = 30_000;
/**
 * An endpoint is judged by the median of its last this many attempts (at least a quarter of them
 * made): one late answer is no sign, since a busy process's own pauses (garbage collection, a
 * stretch of CPU-bound work) make every attempt that ends during them look late together.
 */
const SLOW_SAMPLE = 16;
/**
 * An attempt still running after this many times WEBHOOK_SLOW_MS, with no answer from its endpoint
 * for as long, marks it slow before it answers (a receiver that hangs): well above any pause.
 */
const HANGING_FACTOR = 4;
/**
 * How long a stopping worker lets its attempts in flight run on: those that end are recorded;
 * those still running then (a receiver that hangs) are aborted and their claims given back, so a
 * stop never waits for a request's whole timeout, nor leaves its deliveries to a lease.
 */
const STOP_GRACE_MS = 3000;
const NOTIFICATION_CREATED = 'notification.created';
/** The longest wait between two tries of a loop whose step keeps failing. */
const RETRY_MAX_MS = 5000;
/** Every channel's claim, in the order they take turns at claiming first. */
const CLAIMERS = [claimWebhooks, claimEmails, claimerOf('PUSH'), claimerOf('DIGEST')];

export interface EventWorker {
  /** Dispatches what is undispatched and makes every due delivery once; returns how many were made. */
  runOnce(): Promise<number>;
  /** Wakes an idle worker (new events are waiting). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Fans out one batch of committed outbox rows; returns how many rows it took. A created
 * notification becomes an e-mail when its recipient asked for e-mail, and a push to each of the
 * recipient's devices of `platforms` (those with a configured sender) unless push is off; both
 * only in a category the recipient enabled and a scope not switched off (docs/events.md has the
 * table). Settings are read here, once, at the notification's dispatch.
 */
export async function dispatchOutbox(orm: MikroORM, platforms: readonly string[] = []): Promise<number> {
  return asEventWorker(orm, async (q) => {
    const rows = await dispatchBatch(q, DISPATCH_BATCH);
    const created = rows.filter((r) => r.type === NOTIFICATION_CREATED);
    if (created.length === 0) return rows.length;
    // The batch's created notifications, each within its own tenant (the joins keep to it); the
    // worker reads the recipients' settings and devices of every tenant through its read policies.
    await insertNotificationEmails(q, created);
    if (platforms.length > 0) await insertNotificationPushes(q, created, platforms);
    return rows.length;
  });
}

/** What the worker tells about each attempt (the metrics count them). */
export interface AttemptObserver {
  /** `endpointId`: the webhook endpoint; for push, the push service (`webpush`, `fcm`, `apns`). */
  (attempt: { channel: Channel; endpointId: string | null; ok: boolean; seconds: number }): void;
}

/** What an attempt needs besides its claim: the settings and the senders. */
interface Senders {
  settings: EventSettings;
  mailer: Mailer;
  push: PushSenders;
}

/**
 * The webhook bodies of the events delivered lately, by tenant and event: an event goes to each of
 * its tenant's endpoints, mostly within the same claim, and its envelope is the same for all (an
 * outbox row never changes), so it is serialised once rather than once per endpoint.
 */
const bodies = new LRUCache<string, string>({ max: 1024 });

function bodyOf(event: OutboxRecord): string {
  const key = `${event.tenant_id}:${event.id}`;
  let body = bodies.get(key);
  if (body === undefined) bodies.set(key, (body = JSON.stringify(envelopeOf(event))));
  return body;
}

/** Makes one attempt of a claimed delivery: the POST of a webhook, or the e-mail. */
async function attempt(orm: MikroORM, senders: Senders, claim: Claim, signal: AbortSignal): Promise<Attempt> {
  const { settings, mailer } = senders;
  const at = new Date();
  if (claim.channel === 'PUSH') return attemptPush(orm, senders, claim, signal);
  if (claim.channel === 'DIGEST') return attemptDigest(orm, senders, claim);
  if (claim.channel === 'WEBHOOK') {
    const event = claim.event!;
    const body = bodyOf(event);
    const secrets = [claim.secret!];
    if (
      claim.previous_secret &&
      claim.previous_secret_expires &&
      new Date(claim.previous_secret_expires) > at
    )
      secrets.push(claim.previous_secret);
    const outcome = await postWebhook(claim.url!, signedHeaders(secrets, event.id, at, body), body, {
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivateTargets,
      signal,
    });
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    return { claim, ok, ...outcome, at };
  }
  if (claim.target?.mail) return attemptComposed(mailer, claim, claim.target.mail, at);
  const notificationId = claim.target?.notificationId ?? '';
  const mail = await notificationMail(orm, claim.tenant_id, notificationId);
  if (!mail)
    return {
      claim,
      ok: false,
      statusCode: null,
      error: 'the notification no longer exists',
      durationMs: Date.now() - at.getTime(),
      at,
      sent: false,
    };
  return attemptComposed(
    mailer,
    claim,
    {
      to: mail.email,
      subject: mail.title || 'A new notification',
      text: [mail.body, mail.action_url].filter(Boolean).join('\n\n'),
    },
    at,
  );
}

/** An e-mail as composed: queued so (outbound-mail.ts), or a notification's, made at its attempt. */
async function attemptComposed(mailer: Mailer, claim: Claim, mail: MailMessage, at: Date): Promise<Attempt> {
  let error: string | null = null;
  let sent = false;
  try {
    sent = await mailer.send(mail);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  return {
    claim,
    ok: error === null,
    statusCode: null,
    error,
    durationMs: Date.now() - at.getTime(),
    at,
    sent,
  };
}

/** Nothing to send (the notification, the device or the digest is gone): done, without a request. */
const nothingToSend = (claim: Claim, at: Date): Attempt => ({
  claim,
  ok: true,
  statusCode: null,
  error: null,
  durationMs: Date.now() - at.getTime(),
  at,
});

/**
 * One push: the notification and the device read within the claim's tenant (the device must
 * still be the recipient's: a token that moved to another user, or was removed, gets nothing),
 * sent through the platform's service. A 404 or 410 (the device is gone) removes the token and
 * ends the delivery FAILED; any other failure is retried.
 */
async function attemptPush(
  orm: MikroORM,
  senders: Senders,
  claim: Claim,
  signal: AbortSignal,
): Promise<Attempt> {
  const at = new Date();
  const target = claim.target!;
  const row = await pushOf(orm, claim.tenant_id, target.notificationId ?? '', target.tokenId ?? '');
  if (!row) return nothingToSend(claim, at);
  const notice: PushNotice = {
    notificationId: row.id,
    title: row.title ?? '',
    body: row.body ?? '',
    actionUrl: row.action_url,
    category: row.category,
    type: row.notification_type,
    scope: row.scope,
    createdAt: new Date(row.created).toISOString(),
  };
  const outcome = await senders.push.send(row.platform, row.token, notice, {
    timeoutMs: senders.settings.timeoutMs,
    allowPrivate: senders.settings.allowPrivateTargets,
    signal,
    deliveryId: claim.id,
  });
  if (outcome.gone) await deletePushToken(orm, claim.tenant_id, target.tokenId, row.token);
  const ok = outcome.error === null;
  return {
    claim,
    ok,
    statusCode: outcome.statusCode,
    error: outcome.gone ? `the device is gone (token removed): ${outcome.error ?? ''}` : outcome.error,
    durationMs: outcome.durationMs,
    at,
    sent: ok,
    final: outcome.gone,
  };
}

/** One digest: its content read within the tenant, composed in the user's language, mailed. */
async function attemptDigest(orm: MikroORM, senders: Senders, claim: Claim): Promise<Attempt> {
  const at = new Date();
  const target = claim.target!;
  const content = await digestContent(orm, claim.tenant_id, {
    userId: target.userId,
    frequency: target.frequency ?? 'DAILY',
    from: target.from ?? at.toISOString(),
    to: target.to ?? at.toISOString(),
    requested: target.requested,
  });
  if (!content) return nothingToSend(claim, at);
  const link = await unsubscribeLink(senders.settings, claim.tenant_id, target.userId);
  const mail = composeDigest(content, link);
  let error: string | null = null;
  try {
    await senders.mailer.send({
      to: content.email,
      ...mail,
      // RFC 2369 and RFC 8058: mail programs offer "unsubscribe" and may POST to it in one click.
      headers: link
        ? { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
        : undefined,
    });
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  return { claim, ok: error === null, statusCode: null, error, durationMs: Date.now() - at.getTime(), at };
}

interface Flight {
  claim: Claim;
  abort: AbortController;
  startedAt: number;
}

/**
 * The deliveries of one worker: claims as many as it has room for, makes them concurrently, renews
 * their leases while they run and records them in batches. A slot is free again once its attempt
 * is recorded, so an endpoint's window moves on only after the database knows; a record of
 * webhook successes claims the next due webhooks in the same round trip, so a busy endpoint's
 * window moves on in one trip to the database rather than two.
 */
class DeliveryPool {
  readonly id = randomUUID();
  private readonly flights = new Map<string, Flight>();
  /** Slots a claim under way may fill: not free to another claim meanwhile. */
  private reserved = 0;
  /** Stopping (drain()): records claim nothing more with them. */
  private closing = false;
  private finished: Attempt[] = [];
  private recording: Promise<void> | undefined;
  private renewal: NodeJS.Timeout;
  /** Which channel claims first this time: each in turn, so none can keep the others out. */
  private turn = 0;
  private gathering: NodeJS.Timeout | undefined;
  /** Changes whenever claiming may find something new (an attempt recorded, a nudge, a poll). */
  private generation = 0;
  /** The generation in which each channel's claim last came back short: no use asking again. */
  private readonly exhausted = new Map<unknown, number>();
  private readonly waiting = new Set<(recorded: boolean) => void>();
  /** When this worker last marked each endpoint slow (a mark lasts SLOW_MARK_MS). */
  private readonly markedSlow = new Map<string, number>();
  /** Per webhook endpoint: whether each of its last attempts was slow, how many were, and when it last answered. */
  private readonly answers = new Map<string, { slow: boolean[]; slowCount: number; lastAt: number }>();

  private readonly settings: EventSettings;

  constructor(
    private readonly orm: MikroORM,
    private readonly senders: Senders,
    private readonly log: Logger,
    private readonly observe?: AttemptObserver,
  ) {
    const settings = senders.settings;
    this.settings = settings;
    this.renewal = setInterval(() => void this.renew(), Math.max(100, Math.floor(settings.leaseMs / 4)));
    this.renewal.unref();
  }

  get inFlight(): number {
    return this.flights.size;
  }

  /** A claim is under way (the slots it may fill are reserved until it returns). */
  get claiming(): boolean {
    return this.reserved > 0;
  }

  /** Resolves true when attempts have been recorded (slots are free), false after `ms`. */
  settle(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      // A wait is never what keeps the process alive (a stopped worker leaves none behind).
      timer.unref();
      const waiting = this.waiting;
      function done(recorded: boolean) {
        clearTimeout(timer);
        waiting.delete(done);
        resolve(recorded);
      }
      waiting.add(done);
    });
  }

  /**
   * Attempts were recorded. Only a webhook's record can make more deliveries claimable (its
   * endpoint's window moves on); the other channels have no window, so their claims are not made
   * again for it (each empty claim is a statement on every cycle of a busy endpoint).
   */
  private signal(webhooks: boolean): void {
    if (webhooks) this.exhausted.delete(claimWebhooks);
    for (const done of [...this.waiting]) done(true);
  }

  /** Something may be due now (new deliveries, retries come due, leases run out). */
  poke(): void {
    this.generation++;
  }

  /** Claims and starts what there is room for; returns how many it started. */
  async fill(): Promise<number> {
    const room = this.room();
    if (room <= 0) return 0;
    this.turn = (this.turn + 1) % CLAIMERS.length;
    const order = [...CLAIMERS.slice(this.turn), ...CLAIMERS.slice(0, this.turn)];
    let started = 0;
    this.reserved += room;
    try {
      for (const claim of order) {
        if (this.exhausted.get(claim) === this.generation) continue;
        const generation = this.generation;
        const claims = await claim(this.orm, this.settings, this.id, room - started);
        for (const c of claims) this.start(c);
        if (claims.length < room - started) this.exhausted.set(claim, generation);
        started += claims.length;
        if (started >= room) break;
      }
    } finally {
      this.reserved -= room;
    }
    return started;
  }

  /** Slots free to a claim now (`freeing`: attempts about to be recorded, whose slots it may take). */
  private room(freeing = 0): number {
    return Math.min(BATCH, this.settings.concurrency - this.flights.size + freeing - this.reserved);
  }

  private start(claim: Claim): void {
    const key = `${claim.tenant_id}:${claim.id}`;
    const running = this.flights.get(key);
    if (running) {
      // Its lease ran out while this worker still makes the attempt (a stall longer than the
      // lease), and this worker claimed it again: the claim carries on the attempt under way
      // rather than sending the event a second time.
      running.claim.attempts = claim.attempts;
      return;
    }
    const flight: Flight = { claim, abort: new AbortController(), startedAt: Date.now() };
    this.flights.set(key, flight);
    attempt(this.orm, this.senders, claim, flight.abort.signal)
      .catch((err: unknown) => ({
        claim,
        ok: false,
        statusCode: null,
        error: err instanceof Error ? err.message : String(err),
        durationMs: 0,
        at: new Date(),
      }))
      .then((done) => {
        this.observe?.({
          channel: claim.channel,
          endpointId:
            claim.channel === 'PUSH' ? (SERVICE_OF[claim.target?.platform ?? ''] ?? null) : claim.endpoint_id,
          ok: done.ok,
          seconds: done.durationMs / 1000,
        });
        if (this.answeredSlowly(claim, done.durationMs)) this.noteSlow([claim]);
        this.finished.push(done);
        this.record();
      });
  }

  /**
   * Notes a webhook attempt's time; whether its endpoint's recent attempts take WEBHOOK_SLOW_MS at
   * the median, that is whether at least half of them took that long (counted as they come and
   * go, not sorted: this runs at every attempt).
   */
  private answeredSlowly(claim: Claim, ms: number): boolean {
    if (claim.channel !== 'WEBHOOK' || !claim.endpoint_id) return false;
    // An endpoint's id is unique across tenants (a random UUID).
    const key = claim.endpoint_id;
    const now = Date.now();
    let seen = this.answers.get(key);
    if (!seen) {
      // Endpoints come and go: what has not answered for a mark's length is forgotten.
      for (const [k, a] of this.answers) if (now - a.lastAt > SLOW_MARK_MS) this.answers.delete(k);
      this.answers.set(key, (seen = { slow: [], slowCount: 0, lastAt: now }));
    }
    seen.lastAt = now;
    const slow = ms >= this.settings.slowReceiverMs;
    seen.slow.push(slow);
    if (slow) seen.slowCount++;
    if (seen.slow.length > SLOW_SAMPLE && seen.slow.shift()) seen.slowCount--;
    return seen.slow.length >= SLOW_SAMPLE / 4 && 2 * seen.slowCount >= seen.slow.length;
  }

  /**
   * Marks the webhook endpoints of these claims slow, each at most once a quarter of a mark per
   * process: a receiver that takes its time makes its own lag, which the bound on writes leaves out.
   */
  private noteSlow(claims: readonly Claim[]): void {
    const now = Date.now();
    const due = new Map<string, { tenantId: string; endpointId: string }>();
    for (const c of claims) {
      if (c.channel !== 'WEBHOOK' || !c.endpoint_id) continue;
      const key = `${c.tenant_id}:${c.endpoint_id}`;
      if (now - (this.markedSlow.get(key) ?? -Infinity) < SLOW_MARK_MS / 4) continue;
      this.markedSlow.set(key, now);
      due.set(key, { tenantId: c.tenant_id, endpointId: c.endpoint_id });
    }
    if (due.size === 0) return;
    for (const [key, at] of this.markedSlow) if (now - at >= SLOW_MARK_MS) this.markedSlow.delete(key);
    markSlow(this.orm, [...due.values()], SLOW_MARK_MS).catch((err: unknown) => {
      for (const key of due.keys()) this.markedSlow.delete(key);
      this.log.warn({ err }, 'event worker could not mark a slow endpoint');
    });
  }

  /**
   * Records what has finished, one batch at a time; what finishes meanwhile goes in the next.
   * Attempts started together end close together: while some are still running, the first to
   * end waits a few milliseconds for the others, so they are recorded in one statement.
   */
  private record(): void {
    if (this.recording || this.finished.length === 0) return;
    const running = this.flights.size - this.finished.length;
    if (this.gathering) {
      // The last of them has ended: nothing more to wait for.
      if (running > 0 && this.finished.length < BATCH) return;
      clearTimeout(this.gathering);
      this.gathering = undefined;
    }
    if (running > 0 && this.finished.length < BATCH) {
      this.gathering = setTimeout(() => {
        this.gathering = undefined;
        this.flush();
      }, GATHER_MS);
      return;
    }
    this.flush();
  }

  private flush(): void {
    if (this.recording || this.finished.length === 0) return;
    const batch = this.finished.splice(0, BATCH);
    const webhooks = batch.some((a) => a.claim.channel === 'WEBHOOK');
    let claimedWith = false;
    this.recording = this.recordBatch(batch, webhooks)
      .then(({ attempts, disabled, claimed }) => {
        claimedWith = claimed;
        for (const d of disabled) this.log.warn(d, 'webhook endpoint disabled');
        this.log.debug({ recorded: attempts.length, of: batch.length }, 'delivery attempts recorded');
      })
      .catch(async (err: unknown) => {
        // The database is away: keep them and try again (their leases may run out meanwhile, and
        // then the record is another worker's to make).
        this.log.error({ err }, 'event worker failed to record delivery attempts');
        this.finished.unshift(...batch);
        await new Promise((r) => setTimeout(r, this.settings.pollIntervalMs));
        this.poke();
      })
      .finally(() => {
        this.recording = undefined;
        // A record that claimed with it has already looked for what it made claimable.
        this.signal(webhooks && !claimedWith);
        this.record();
      });
  }

  /**
   * Records a batch and frees its slots; a batch of webhook successes (the busy case) claims due
   * webhooks into the slots it frees in the same trip.
   */
  private async recordBatch(
    batch: Attempt[],
    webhooks: boolean,
  ): Promise<{
    attempts: Attempt[];
    disabled: { tenantId: string; endpointId: string }[];
    claimed: boolean;
  }> {
    const free = () => {
      for (const a of batch) this.flights.delete(`${a.claim.tenant_id}:${a.claim.id}`);
    };
    const room = this.room(batch.length);
    if (this.closing || !webhooks || !plainSuccesses(batch) || room <= 0) {
      const recorded = await recordAttempts(this.orm, this.settings, this.id, batch);
      free();
      return { ...recorded, claimed: false };
    }
    const generation = this.generation;
    this.reserved += room;
    try {
      const { recorded, claims } = await recordAndClaimWebhooks(
        this.orm,
        this.settings,
        this.id,
        batch,
        room,
      );
      free();
      for (const c of claims) this.start(c);
      if (claims.length < room) this.exhausted.set(claimWebhooks, generation);
      else this.exhausted.delete(claimWebhooks);
      return { attempts: recorded, disabled: [], claimed: true };
    } finally {
      this.reserved -= room;
    }
  }

  /** Renews the leases of the attempts in flight; stops those whose delivery was taken away. */
  private async renew(): Promise<void> {
    const running = [...this.flights.values()].filter((f) => !f.abort.signal.aborted);
    if (running.length === 0) return;
    // A receiver that has not answered for long, with an attempt running, is as slow as one that
    // answers late.
    const now = Date.now();
    const hanging = HANGING_FACTOR * this.settings.slowReceiverMs;
    this.noteSlow(
      running
        .filter(
          (f) =>
            now - f.startedAt >= hanging &&
            now - (this.answers.get(f.claim.endpoint_id ?? '')?.lastAt ?? 0) >= hanging,
        )
        .map((f) => f.claim),
    );
    try {
      const lost = await renewLeases(
        this.orm,
        this.settings,
        this.id,
        running.map((f) => f.claim),
      );
      for (const claim of lost) this.flights.get(`${claim.tenant_id}:${claim.id}`)?.abort.abort();
    } catch (err) {
      this.log.warn({ err }, 'event worker could not renew its leases');
    }
  }

  /**
   * Waits for the attempts in flight to end and be recorded (at most `graceMs`); then gives back
   * the claims of those still running and aborts them (their records, made after, find the claim
   * gone and change nothing), and waits for the records under way.
   */
  async drain(graceMs: number): Promise<void> {
    this.closing = true;
    const until = Date.now() + graceMs;
    while ((this.flights.size > 0 || this.recording) && Date.now() < until) await this.settle(50);
    clearInterval(this.renewal);
    const done = new Set(this.finished.map((a) => `${a.claim.tenant_id}:${a.claim.id}`));
    const running = [...this.flights.entries()].filter(([key]) => !done.has(key)).map(([, f]) => f);
    if (running.length > 0) {
      try {
        await releaseClaims(
          this.orm,
          this.id,
          running.map((f) => f.claim),
        );
      } catch (err) {
        // Their leases run out instead.
        this.log.warn({ err }, 'event worker could not give back its claims');
      }
      for (const f of running) f.abort.abort();
    }
    // The aborted attempts end at once; a record under way or due is let finish (bounded).
    const recorded = Date.now() + graceMs;
    while ((this.flights.size > 0 || this.recording) && Date.now() < recorded) await this.settle(50);
  }
}

/** Claims and makes one due webhook delivery, start to end; false when none was due. */
export async function deliverOne(orm: MikroORM, settings: EventSettings, log: Logger): Promise<boolean> {
  const worker = randomUUID();
  const [claim] = await claimWebhooks(orm, settings, worker, 1);
  if (!claim) return false;
  const mailer = createMailer(undefined, settings.mailFrom, log);
  const push = new PushSenders(settings.push);
  const made = await attempt(orm, { settings, mailer, push }, claim, new AbortController().signal);
  push.close();
  await recordAttempts(orm, settings, worker, [made]);
  return true;
}

/**
 * Starts the worker: a dispatch loop (the outbox into deliveries) and a delivery loop (claims
 * while it has room, waits for a slot, a nudge or the poll interval otherwise). Errors (database
 * unavailable) are logged and retried after the interval; whatever they interrupted is taken up
 * again from the database.
 */
/**
 * The wait of a loop that keeps finding nothing: the poll interval, doubling at each empty look
 * up to `idlePollMaxMs` (a quarter more at most, so the processes of a deployment drift apart).
 */
const quietly = (settings: EventSettings) =>
  new Backoff(settings.pollIntervalMs, Math.max(settings.pollIntervalMs, settings.idlePollMaxMs));

export function startEventWorker(
  orm: MikroORM,
  logger: Logger,
  settings: EventSettings,
  observe?: AttemptObserver,
  /** A PostgreSQL server (not the embedded database): `settings.connections` apply only then. */
  server = false,
): EventWorker {
  const log = logger.child({ worker: `event-worker@${hostname()}:${process.pid}` });
  const mailer = createMailer(settings.smtpUrl, settings.mailFrom, log, settings.mailDir);
  const push = new PushSenders(settings.push);
  const platforms = configuredPlatforms(settings.push);
  sizeAgents(settings.concurrency);
  const closeConnections =
    server && settings.connections > 0 ? ownConnections(orm, settings.connections) : undefined;
  const pool = new DeliveryPool(orm, { settings, mailer, push }, log, observe);
  let stopped = false;
  const wakers = new Set<() => void>();
  /** The dispatch loop's wait, also ended by a write of this process. */
  const dispatchWakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  /** Waits `ms`, or less when woken: resolves true when woken (a write, a nudge), false when the time ran out. */
  const idle = (ms: number, also?: Set<() => void>, woken = wakers) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      // A wait is never what keeps the process alive (a stopped worker leaves none behind).
      timer.unref();
      function done(early = true) {
        clearTimeout(timer);
        woken.delete(done);
        also?.delete(done);
        resolve(early);
      }
      woken.add(done);
      also?.add(done);
    });
  // Until then the dispatch loop looks again after DISPATCH_SOON_MS: this process wrote events.
  let soonUntil = 0;
  const stopListening = onOutboxWrites(() => {
    const waking = Date.now() >= soonUntil;
    soonUntil = Date.now() + settings.pollIntervalMs;
    // Its long wait ends now; the write commits within the short ones that follow.
    if (waking) for (const wake of [...dispatchWakers]) wake();
  });

  const dispatchAll = async () => {
    let made = 0;
    for (let n; !stopped && (n = await dispatchOutbox(orm, platforms)) > 0;) {
      made += n;
      wakeAll();
    }
    return made;
  };

  // A failing step (the database away) is tried again after a wait that doubles, up to
  // RETRY_MAX_MS, rather than at every poll interval: each try is a connection attempt.
  const guarded = (what: string, step: () => Promise<unknown>) =>
    (async () => {
      const backoff = new Backoff(settings.pollIntervalMs, Math.max(settings.pollIntervalMs, RETRY_MAX_MS));
      while (!stopped) {
        try {
          await step();
          if (backoff.failing) log.info(`event worker can ${what} again`);
          backoff.reset();
        } catch (err) {
          log.error({ err }, `event worker failed to ${what}`);
          await idle(backoff.delay());
        }
      }
    })();

  // An idle process looks less and less often (quietly()): each look is a statement, and a
  // deployment's processes are idle most of the time. What its own requests write wakes it at
  // once (onOutboxWrites, wakeAll), so only work made elsewhere (another process's events
  // without a worker, a retry coming due) waits up to EVENT_IDLE_POLL_MAX_MS.
  const quietDispatch = quietly(settings);
  const quietDelivery = quietly(settings);
  const dispatching = guarded('dispatch', async () => {
    const made = await dispatchAll();
    if (stopped) return;
    const soon = Date.now() < soonUntil;
    if (made > 0 || soon) quietDispatch.reset();
    const woken = await idle(
      soon ? Math.min(DISPATCH_SOON_MS, settings.pollIntervalMs) : quietDispatch.delay(),
      dispatchWakers,
    );
    if (woken) quietDispatch.reset();
  });
  const delivering = guarded('deliver', async () => {
    const started = await pool.fill();
    if (stopped) return;
    if (started > 0 || pool.inFlight > 0) quietDelivery.reset();
    // Room left and nothing claimed: wait for work. Full: wait for a slot.
    if (started === 0 || pool.inFlight >= settings.concurrency) {
      const wait = pool.inFlight > 0 ? settings.pollIntervalMs : quietDelivery.delay();
      const recorded = await Promise.race([
        pool.settle(wait),
        idle(wait).then((woken) => {
          // Woken by new events or a nudge: work is near, look often again.
          if (woken) quietDelivery.reset();
          return false;
        }),
      ]);
      if (recorded) quietDelivery.reset();
      // Woken by a nudge or the poll interval: anything may be due now (a record has said what).
      if (!recorded) pool.poke();
    }
  });
  log.info('event worker started');

  return {
    async runOnce() {
      await dispatchAll();
      pool.poke();
      let made = 0;
      for (;;) {
        const started = await pool.fill();
        made += started;
        // Another claim (the delivery loop's) may hold the room meanwhile: wait for it, briefly.
        if (started === 0 && pool.inFlight === 0 && !pool.claiming) break;
        if (started === 0) await pool.settle(pool.inFlight === 0 ? 10 : settings.pollIntervalMs);
        pool.poke();
      }
      return made;
    },
    nudge: wakeAll,
    async stop() {
      stopped = true;
      stopListening();
      wakeAll();
      await Promise.all([dispatching, delivering]);
      // What is in flight finishes and is recorded, or is given back (drain()).
      await pool.drain(Math.min(STOP_GRACE_MS, settings.timeoutMs));
      mailer.close();
      push.close();
      await closeConnections?.();
      log.info('event worker stopped');
    },
  };
}
