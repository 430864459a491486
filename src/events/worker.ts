import { hostname } from 'node:os';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { envelopeOf, type OutboxRecord } from './envelope';
import { postWebhook, type PostOutcome } from './http-post';
import { retryDelay, type EventSettings } from './settings';
import { signedHeaders } from './signing';
import { asEventWorker, type Query } from './store';
import { createMailer, type Mailer } from './mail';

/**
 * The event worker: fans committed outbox rows out to deliveries, and hands deliveries to their
 * receivers, at least once. Any number of service processes run one; they share the work through
 * FOR UPDATE SKIP LOCKED, as the coverage job queue does (jobs/queue.ts):
 *
 * - dispatch: claims a batch of undispatched outbox rows, inserts a PENDING delivery for every
 *   active endpoint of the row's tenant whose `events` match, and marks the rows dispatched, all
 *   in one transaction;
 * - delivery: claims one due delivery that is the oldest undelivered one of its endpoint (so an
 *   endpoint receives its events in order, one at a time), leases it for the request's timeout
 *   plus a margin and commits; then posts it outside any transaction and records the attempt. A
 *   worker that dies mid-request leaves the lease to run out, and the delivery is tried again.
 */

const DISPATCH_BATCH = 100;
const NOTIFICATION_CREATED = 'notification.created';

export interface EventWorker {
  /** Dispatches what is undispatched and makes every due delivery once; returns how many were made. */
  runOnce(): Promise<number>;
  /** Wakes an idle worker (new events are waiting). */
  nudge(): void;
  stop(): Promise<void>;
}

/** Fans out one batch of committed outbox rows; returns how many rows it took. */
export async function dispatchOutbox(orm: MikroORM): Promise<number> {
  return asEventWorker(orm, async (q) => {
    const rows = await q<{ tenant_id: string; id: string; type: string }>(
      `with batch as (
         select tenant_id, id from outbox_event where dispatched_at is null
         order by occurred_at, id limit ${DISPATCH_BATCH} for update skip locked
       ), marked as (
         update outbox_event o set dispatched_at = now() from batch b
         where o.tenant_id = b.tenant_id and o.id = b.id
         returning o.tenant_id, o.id, o.type, o.occurred_at, o.target_endpoint_id
       ), hooks as (
         insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
           endpoint_id, event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log)
         select m.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'WEBHOOK',
           e.id, m.id, m.type, m.occurred_at, 'PENDING', 0, now(), '[]'::jsonb
         from marked m join webhook_endpoint e on e.tenant_id = m.tenant_id
         where case when m.target_endpoint_id is not null then e.id = m.target_endpoint_id
                    else e.active and (m.type = any(e.events) or '*' = any(e.events)) end
         returning 1
       )
       select m.tenant_id, m.id, m.type from marked m`,
    );
    for (const row of rows.filter((r) => r.type === NOTIFICATION_CREATED)) {
      // Within the notification's tenant: its recipient's settings are read under that tenant's policy.
      await q(`select set_config('app.tenant_id', ?, true)`, [row.tenant_id]);
      await q(
        `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
           event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
         select o.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'EMAIL',
           o.id, o.type, o.occurred_at, 'PENDING', 0, now(), '[]'::jsonb,
           jsonb_build_object('notificationId', o.resource_id, 'userId', s.user_id)
         from outbox_event o join notification_settings s
           on s.tenant_id = o.tenant_id and s.user_id = (o.data->>'userId')::uuid
         where o.tenant_id = ? and o.id = ? and s.email_notifications_enabled
           and (o.data->>'category') = any(s.enabled_categories)
           and not coalesce((o.data->>'scope') = any(s.disabled_scopes), false)`,
        [row.tenant_id, row.id],
      );
    }
    return rows.length;
  });
}

interface ClaimedDelivery {
  tenant_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  target: { notificationId: string; userId: string } | null;
  /** The lease as PostgreSQL's text, microseconds included, so that comparing it back is exact. */
  lease: string;
}

/** Claims the next due delivery of `channel` (see above), or null. */
async function claimDelivery(
  orm: MikroORM,
  leaseMs: number,
  channel: 'WEBHOOK' | 'EMAIL',
): Promise<ClaimedDelivery | null> {
  // Webhooks go out in order, one at a time per endpoint, and only to active endpoints.
  const webhookOnly = `
           and exists (
             select 1 from webhook_endpoint e where e.tenant_id = c.tenant_id and e.id = c.endpoint_id
               and (e.active or c.event_type = 'webhook.test'))
           and not exists (
             select 1 from event_delivery p
             where p.tenant_id = c.tenant_id and p.endpoint_id = c.endpoint_id and p.status = 'PENDING'
               and (p.occurred_at, p.id) < (c.occurred_at, c.id))`;
  return asEventWorker(orm, async (q) => {
    const [claimed] = await q<ClaimedDelivery>(
      `update event_delivery d
         set locked_until = now() + make_interval(secs => ?::float8 / 1000), attempts = d.attempts + 1
       from (
         select c.tenant_id, c.id from event_delivery c
         where c.channel = ? and c.status = 'PENDING' and c.next_attempt_at <= now()
           and (c.locked_until is null or c.locked_until < now())
           ${channel === 'WEBHOOK' ? webhookOnly : ''}
         order by c.next_attempt_at, c.occurred_at
         limit 1 for update skip locked
       ) next
       where d.tenant_id = next.tenant_id and d.id = next.id
       returning d.tenant_id, d.id, d.endpoint_id, d.event_id, d.attempts, d.locked_until::text as lease, d.target`,
      [leaseMs, channel],
    );
    return claimed ?? null;
  });
}

interface Target {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires: Date | null;
  active: boolean;
}

/** What the attempt needs: the endpoint and the event (read after the claim, outside its transaction). */
async function loadAttempt(orm: MikroORM, d: ClaimedDelivery) {
  return asEventWorker(orm, async (q) => {
    const [target] = await q<Target>(
      `select url, secret, previous_secret, previous_secret_expires, active from webhook_endpoint
       where tenant_id = ? and id = ?`,
      [d.tenant_id, d.endpoint_id],
    );
    const [event] = await q<OutboxRecord>(
      `select tenant_id, id, type, resource_type, resource_id, occurred_at, actor, data from outbox_event
       where tenant_id = ? and id = ?`,
      [d.tenant_id, d.event_id],
    );
    return { target, event };
  });
}

/**
 * Records an attempt: DELIVERED on a 2xx; otherwise PENDING again after a backoff, or FAILED once
 * the attempts are used up. Only the holder of the lease writes (a worker that lost its lease to
 * another leaves the record to that one). The endpoint's failing streak is kept, and an endpoint
 * failing for longer than `disableAfterMs` is turned off.
 */
async function recordAttempt(
  orm: MikroORM,
  settings: EventSettings,
  d: ClaimedDelivery,
  outcome: PostOutcome & { ok: boolean },
  log: Logger,
  onSuccess?: (q: Query) => Promise<unknown>,
): Promise<void> {
  const ok = outcome.ok;
  const last = d.attempts >= settings.maxAttempts;
  const attempt = JSON.stringify([
    {
      at: new Date().toISOString(),
      statusCode: outcome.statusCode,
      error: outcome.error?.slice(0, 1000) ?? null,
      durationMs: outcome.durationMs,
    },
  ]);
  const status = ok ? 'DELIVERED' : last ? 'FAILED' : 'PENDING';
  const delayMs = ok || last ? null : retryDelay(settings, d.attempts);
  await asEventWorker(orm, async (q) => {
    const updated = await q(
      `update event_delivery set status = ?, last_status_code = ?, last_error = ?,
         attempt_log = attempt_log || ?::jsonb, locked_until = null, updated = now(), version = version + 1,
         delivered_at = case when ? then now() else null end,
         next_attempt_at = case when ?::float8 is null then null else now() + make_interval(secs => ?::float8 / 1000) end
       where tenant_id = ? and id = ? and locked_until = ?::timestamptz and status = 'PENDING'
       returning id`,
      [
        status,
        outcome.statusCode,
        ok ? null : (outcome.error?.slice(0, 1000) ?? null),
        attempt,
        ok,
        delayMs,
        delayMs,
        d.tenant_id,
        d.id,
        d.lease,
      ],
    );
    if (updated.length === 0) return;
    if (ok) await onSuccess?.(q);
    if (!d.endpoint_id) return;
    if (ok) {
      await q(
        `update webhook_endpoint set failing_since = null where tenant_id = ? and id = ? and failing_since is not null`,
        [d.tenant_id, d.endpoint_id],
      );
      return;
    }
    const [endpoint] = await q<{ active: boolean; failing_since: Date }>(
      `update webhook_endpoint set failing_since = coalesce(failing_since, now()),
         active = active and coalesce(failing_since, now()) > now() - make_interval(secs => ?::float8 / 1000)
       where tenant_id = ? and id = ? returning active, failing_since`,
      [settings.disableAfterMs, d.tenant_id, d.endpoint_id],
    );
    if (endpoint && !endpoint.active) {
      await q(
        `update webhook_endpoint set disabled_reason = coalesce(disabled_reason, ?) where tenant_id = ? and id = ?`,
        [
          `every delivery failed since ${new Date(endpoint.failing_since).toISOString()}`,
          d.tenant_id,
          d.endpoint_id,
        ],
      );
      log.warn({ tenantId: d.tenant_id, endpointId: d.endpoint_id }, 'webhook endpoint disabled');
    }
  });
}

/** Claims and makes one due webhook delivery; false when none is due. */
export async function deliverOne(orm: MikroORM, settings: EventSettings, log: Logger): Promise<boolean> {
  const leaseMs = settings.timeoutMs + settings.leaseMarginMs;
  const claimed = await claimDelivery(orm, leaseMs, 'WEBHOOK');
  if (!claimed) return false;
  const { target, event } = await loadAttempt(orm, claimed);
  let outcome: PostOutcome;
  if (!target || !event) {
    outcome = { statusCode: null, error: 'the endpoint or the event no longer exists', durationMs: 0 };
  } else {
    const body = JSON.stringify(envelopeOf(event));
    const secrets = [target.secret];
    if (
      target.previous_secret &&
      target.previous_secret_expires &&
      new Date(target.previous_secret_expires) > new Date()
    )
      secrets.push(target.previous_secret);
    outcome = await postWebhook(target.url, signedHeaders(secrets, event.id, new Date(), body), body, {
      timeoutMs: settings.timeoutMs,
      allowPrivate: settings.allowPrivateTargets,
    });
  }
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  await recordAttempt(orm, settings, claimed, { ...outcome, ok }, log);
  log.debug(
    {
      deliveryId: claimed.id,
      endpointId: claimed.endpoint_id,
      status: outcome.statusCode,
      attempt: claimed.attempts,
    },
    'webhook attempt',
  );
  return true;
}

interface NotificationMail {
  title: string | null;
  body: string | null;
  action_url: string | null;
  email: string;
}

/**
 * Claims and sends one due notification e-mail; false when none is due. Once the SMTP server has
 * accepted it, the notification's `emailSent`/`emailSentAt` are set; without a server it is
 * written to the log and `emailSent` stays false.
 */
export async function sendOneEmail(
  orm: MikroORM,
  settings: EventSettings,
  mailer: Mailer,
  log: Logger,
): Promise<boolean> {
  const claimed = await claimDelivery(orm, settings.timeoutMs + settings.leaseMarginMs, 'EMAIL');
  if (!claimed) return false;
  const notificationId = claimed.target?.notificationId ?? '';
  const [mail] = await asEventWorker(
    orm,
    (q) =>
      q<NotificationMail>(
        `select n.title, n.body, n.action_url, u.email from notification n
         join app_user u on u.tenant_id = n.tenant_id and u.id = n.user_id
         where n.tenant_id = ? and n.id = ?`,
        [claimed.tenant_id, notificationId],
      ),
    claimed.tenant_id,
  );
  const started = Date.now();
  let sent = false;
  let error: string | null = null;
  if (!mail) error = 'the notification no longer exists';
  else {
    try {
      sent = await mailer.send({
        to: mail.email,
        subject: mail.title || 'A new notification',
        text: [mail.body, mail.action_url].filter(Boolean).join('\n\n'),
      });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
  }
  const outcome = { ok: error === null, statusCode: null, error, durationMs: Date.now() - started };
  await recordAttempt(orm, settings, claimed, outcome, log, (q) =>
    sent
      ? q(
          `update notification set email_sent = true, email_sent_at = now(), version = version + 1
           where tenant_id = ? and id = ?`,
          [claimed.tenant_id, notificationId],
        )
      : Promise.resolve(),
  );
  return true;
}

/**
 * Starts the worker loop: dispatch, then deliver until nothing is due, then sleep for the poll
 * interval (or until nudged). Errors (database unavailable) are logged and retried after the
 * interval; whatever they interrupted is taken up again from the database.
 */
export function startEventWorker(orm: MikroORM, logger: Logger, settings: EventSettings): EventWorker {
  const log = logger.child({ worker: `event-worker@${hostname()}:${process.pid}` });
  const mailer = createMailer(settings.smtpUrl, settings.mailFrom, log);
  let stopped = false;
  let wake: (() => void) | undefined;

  const runOnce = async () => {
    let made = 0;
    while ((await dispatchOutbox(orm)) > 0 && !stopped);
    while (!stopped && (await deliverOne(orm, settings, log))) made++;
    while (!stopped && (await sendOneEmail(orm, settings, mailer, log))) made++;
    return made;
  };

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, settings.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (!stopped) {
      try {
        await runOnce();
      } catch (err) {
        log.error({ err }, 'event worker failed to dispatch or deliver');
      }
      if (!stopped) await idle();
    }
  })();
  log.info('event worker started');

  return {
    runOnce,
    nudge: () => wake?.(),
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      mailer.close();
      log.info('event worker stopped');
    },
  };
}
