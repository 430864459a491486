import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';
import type { EventActor } from '../entities/outbox-event';
import type { MailMessage } from './mail';
import type { OutboxRecord } from './envelope';
import { retryDelay, type EventSettings } from './settings';
import { asEventWorker, inOneTrip, inOneTripEach, type Query, type TripStatement } from './store';
import { TEST_EVENT } from './catalog';

/**
 * The statements of delivery (`event_delivery`, with the endpoints' standing in `webhook_endpoint`
 * and where their backlogs begin in `webhook_backlog`): claiming due deliveries, renewing the
 * leases of those in flight, and recording attempts, each a batch in one short transaction; how
 * far behind delivery is; and queueing a composed e-mail. None reads more rows than it claims,
 * renews or records, however long the backlog (bench/README.md, "Events: claiming and draining";
 * bench/events-explain.ts prints the plans). The fan-out of the outbox into deliveries is
 * outbox-repository.ts's, the digests' digest-repository.ts's.
 */

export type Channel = 'WEBHOOK' | 'EMAIL' | 'PUSH' | 'DIGEST';

export interface DeliveryTarget {
  userId: string;
  notificationId?: string;
  tokenId?: string;
  platform?: string;
  frequency?: string;
  from?: string;
  to?: string;
  /** A digest its user asked for now (src/events/digest.ts, requestDigest), not a period's. */
  requested?: boolean;
  /**
   * An e-mail composed by the service (an invoice, a reminder: outbound-mail.ts), sent as it
   * is; such a delivery names no notification.
   */
  mail?: MailMessage;
}

/** A claimed delivery with what its attempt needs, read by the claiming statement itself. */
export interface Claim {
  tenant_id: string;
  id: string;
  channel: Channel;
  endpoint_id: string | null;
  /** Null on digests (which carry no event). */
  event_id: string;
  /** The attempt this claim makes (the first is 1); with `locked_by` it names the claim. */
  attempts: number;
  /**
   * E-mail: the notification and its recipient; push: and the device (`tokenId`, `platform`);
   * digests: the recipient and the period (`frequency`, `from`, `to`).
   */
  target: DeliveryTarget | null;
  /** Webhooks: the endpoint and the event. */
  url?: string;
  secret?: string;
  previous_secret?: string | null;
  previous_secret_expires?: Date | null;
  /** The endpoint had a failing streak or an open circuit when claimed: a success must end them. */
  troubled?: boolean;
  event?: OutboxRecord;
}

/** A delivery as the renewing and recording statements name it. */
interface DeliveryKeyRow {
  tenant_id: string;
  id: string;
}

interface ClaimRow extends Claim {
  type: string;
  resource_type: string;
  resource_id: string | null;
  occurred_at: Date;
  actor: EventActor | null;
  data: unknown;
}

/**
 * `backlog`: each endpoint that may have undelivered webhook deliveries, with where they begin
 * (`webhook_backlog`, kept by a trigger on every insert of deliveries and by the claim: see
 * Migration20261127110000_webhook_backlog). Its rows are one per endpoint that has had deliveries,
 * those with nothing waiting marked 'infinity' and passed over.
 */
const BACKLOG = `backlog as (
  select b.tenant_id, b.endpoint_id, b.pending_from, b.changes from webhook_backlog b
  where b.pending_from < 'infinity'
)`;

/**
 * The first `limit` undelivered webhook deliveries of the backlog row `h`, in the endpoint's
 * order, read over `event_delivery_window_idx` from `pending_from`: the entries of deliveries
 * recorded before it, still in the index until vacuum, are not stepped over.
 */
const headOf = (columns: string, limit: number | string) => `select ${columns}
     from event_delivery d
     where d.tenant_id = h.tenant_id and d.endpoint_id = h.endpoint_id
       and d.status = 'PENDING' and d.channel = 'WEBHOOK' and d.occurred_at >= h.pending_from
     order by d.occurred_at, d.id
     limit ${limit}`;

const leaseSql = (settings: EventSettings) =>
  `now() + make_interval(secs => ${Math.round(settings.leaseMs)}::float8 / 1000)`;

/**
 * Claims up to `limit` due webhook deliveries. An endpoint's window is its `endpointConcurrency`
 * oldest undelivered deliveries (in occurrence order); only those may be sent, so an event goes
 * out only once every event more than a window older has been delivered or given up. The
 * statement reads each endpoint's window over `event_delivery_window_idx`, one probe per endpoint
 * in `webhook_backlog`, starting where its undelivered deliveries begin, and moves that start up
 * to the window's head (to 'infinity' when none is left; an insert it cannot see yet keeps it);
 * the backlog behind the windows is never read. Endpoints whose circuit is open are passed over;
 * once it closes again (half-open) the window is one delivery, the probe. Deliveries are taken
 * by place in their window first, so every endpoint gets its turn before any gets a second. And
 * one process holds at most its fair share of its `concurrency` for one endpoint (the concurrency
 * over the number of endpoints with undelivered deliveries, and never less than one): a slow
 * endpoint's window does not fill the slots the others need. Other processes' claims do not
 * count against it, so more processes still mean more in flight, up to the window.
 * A disabled tenant's deliveries wait (a deleted tenant in its grace period: docs/operations.md).
 */
export async function claimWebhooks(
  orm: MikroORM,
  settings: EventSettings,
  worker: string,
  limit: number,
): Promise<Claim[]> {
  const { sql, params } = claimWebhooksStatement(settings, worker, limit);
  return webhookClaimsOf(await inOneTrip<ClaimRow>(orm, sql, params));
}

const webhookClaimsOf = (rows: readonly ClaimRow[]): Claim[] =>
  rows.map(({ type, resource_type, resource_id, occurred_at, actor, data, ...claim }) => ({
    ...claim,
    event: {
      tenant_id: claim.tenant_id,
      id: claim.event_id,
      type,
      resource_type,
      resource_id,
      occurred_at,
      actor,
      data,
    },
  }));

/** The statement of claimWebhooks (bench/ explains it): its text depends on the settings only. */
export function claimWebhooksStatement(
  settings: EventSettings,
  worker: string,
  limit: number,
): TripStatement {
  return { sql: claimWebhooksSql(settings), params: [worker, claimLimit(limit), worker] };
}

const claimLimit = (limit: number) => Math.max(1, Math.floor(limit));

function claimWebhooksSql(settings: EventSettings): string {
  const window = settings.endpointConcurrency;
  return `with ${BACKLOG}, windows as (
         select h.tenant_id, h.endpoint_id, x.*,
           count(*) filter (where x.locked_by = ?::uuid and x.locked_until >= now()) over (partition by h.tenant_id, h.endpoint_id) as held
         from backlog h
         cross join lateral (
           ${headOf(
             `d.id, d.event_type, d.occurred_at, d.next_attempt_at, d.locked_until, d.locked_by,
               row_number() over (order by d.occurred_at, d.id) as place`,
             window,
           )}
         ) x
       ), heads as (
         select h.tenant_id, h.endpoint_id, h.changes, coalesce(w.occurred_at, 'infinity') as head
         from backlog h
         left join windows w on w.tenant_id = h.tenant_id and w.endpoint_id = h.endpoint_id and w.place = 1
         where coalesce(w.occurred_at, 'infinity') > h.pending_from
       ), movable as (
         select b.tenant_id, b.endpoint_id, h.head from webhook_backlog b
         join heads h on h.tenant_id = b.tenant_id and h.endpoint_id = b.endpoint_id and h.changes = b.changes
         order by b.tenant_id, b.endpoint_id
         for update of b skip locked
       ), moved as (
         update webhook_backlog b set pending_from = greatest(b.pending_from, m.head)
         from movable m where b.tenant_id = m.tenant_id and b.endpoint_id = m.endpoint_id
       ), fair as (
         select greatest(1, ceil(${Math.max(1, settings.concurrency)}::float8 / count(*)))::int as share
         from (select distinct tenant_id, endpoint_id from windows) w
       ), candidates as (
         select w.tenant_id, w.endpoint_id, w.id, w.place, w.next_attempt_at, w.held
         from windows w
         join webhook_endpoint e on e.tenant_id = w.tenant_id and e.id = w.endpoint_id
         where w.place <= case when e.consecutive_failures >= ${settings.circuitFailures} then 1 else ${window} end
           and (e.circuit_open_until is null or e.circuit_open_until <= now())
           and (e.active or w.event_type = '${TEST_EVENT}')
           and exists (select 1 from tenant t where t.id = w.tenant_id and t.active)
           and w.next_attempt_at <= now() and (w.locked_until is null or w.locked_until < now())
       ), shared as (
         select c.tenant_id, c.id, c.place, c.next_attempt_at from (
           select c.*, row_number() over (partition by c.tenant_id, c.endpoint_id order by c.place) as nth
           from candidates c
         ) c
         where c.held + c.nth <= (select share from fair)
       ), picked as (
         select d.tenant_id, d.id from event_delivery d
         join shared c on c.tenant_id = d.tenant_id and c.id = d.id
         where d.status = 'PENDING' and d.next_attempt_at <= now()
           and (d.locked_until is null or d.locked_until < now())
         order by c.place, c.next_attempt_at
         limit ?::int
         for update of d skip locked
       )
       update event_delivery d
         set locked_until = ${leaseSql(settings)}, locked_by = ?, attempts = d.attempts + 1
       from picked p, outbox_event o, webhook_endpoint e
       where d.tenant_id = p.tenant_id and d.id = p.id
         and o.tenant_id = d.tenant_id and o.id = d.event_id
         and e.tenant_id = d.tenant_id and e.id = d.endpoint_id
       returning d.tenant_id, d.id, d.channel, d.endpoint_id, d.event_id, d.attempts, d.target,
         e.url, e.secret, e.previous_secret, e.previous_secret_expires,
         (e.failing_since is not null or e.consecutive_failures > 0 or e.circuit_open_until is not null) as troubled,
         o.type, o.resource_type, o.resource_id, o.occurred_at, o.actor, o.data`;
}

/**
 * Claims up to `limit` due deliveries of a channel without order (e-mail, push, digests), oldest
 * due first, over the channel's index of undelivered rows by due time (`event_delivery_<channel>_due_idx`);
 * a disabled tenant's wait until it is brought back.
 */
export function claimerOf(channel: Exclude<Channel, 'WEBHOOK'>) {
  return (orm: MikroORM, settings: EventSettings, worker: string, limit: number): Promise<Claim[]> =>
    inOneTrip<Claim>(orm, claimDueSql(channel, settings), [worker, claimLimit(limit)]);
}

/** Claims up to `limit` due e-mail deliveries, oldest due first (over `event_delivery_email_due_idx`). */
export const claimEmails = claimerOf('EMAIL');

/** The statement of claimEmails (bench/ explains it). */
export function claimEmailsStatement(settings: EventSettings, worker: string, limit: number): TripStatement {
  return { sql: claimDueSql('EMAIL', settings), params: [worker, claimLimit(limit)] };
}

function claimDueSql(channel: Exclude<Channel, 'WEBHOOK'>, settings: EventSettings): string {
  return `update event_delivery d
         set locked_until = ${leaseSql(settings)}, locked_by = ?, attempts = d.attempts + 1
       from (
         select c.tenant_id, c.id from event_delivery c
         where c.channel = '${channel}' and c.status = 'PENDING' and c.next_attempt_at <= now()
           and (c.locked_until is null or c.locked_until < now())
           and exists (select 1 from tenant t where t.id = c.tenant_id and t.active)
         order by c.next_attempt_at
         limit ?::int for update skip locked
       ) next
       where d.tenant_id = next.tenant_id and d.id = next.id
       returning d.tenant_id, d.id, d.channel, d.endpoint_id, d.event_id, d.attempts, d.target`;
}

const claimKeys = (claims: readonly Claim[]) =>
  JSON.stringify(claims.map((c) => ({ tenant_id: c.tenant_id, id: c.id, attempts: c.attempts })));

/**
 * Renews the leases of the claims still in flight; returns those this worker no longer holds
 * (deleted with their endpoint, or, after a stall longer than the lease, taken over).
 *
 * A row another transaction has locked is passed over, not waited for: it is mostly this worker's
 * own record of that attempt, which updates the same rows in another order, so waiting made the
 * two deadlock and stalled every delivery for PostgreSQL's deadlock_timeout. Such a row counts as
 * held when its last committed state is still this worker's claim (the next renewal, a quarter of
 * a lease later, sees how it ended); only a row that is no longer this claim is lost.
 */
export async function renewLeases(
  orm: MikroORM,
  settings: EventSettings,
  worker: string,
  claims: readonly Claim[],
): Promise<Claim[]> {
  if (claims.length === 0) return [];
  const [lost] = (await inOneTripEach(orm, [
    {
      planEachTime: true,
      sql: `with x as (
       select * from jsonb_to_recordset(?::jsonb) as x(tenant_id uuid, id uuid, attempts int)
     ), free as (
       select d.tenant_id, d.id from event_delivery d
       join x on d.tenant_id = x.tenant_id and d.id = x.id
       where d.attempts = x.attempts and d.locked_by = ?::uuid and d.status = 'PENDING'
       for update of d skip locked
     ), renewed as (
       update event_delivery d set locked_until = ${leaseSql(settings)}
       from free f where d.tenant_id = f.tenant_id and d.id = f.id
     )
     select x.tenant_id, x.id from x
     where not exists (
       select 1 from event_delivery d
       where d.tenant_id = x.tenant_id and d.id = x.id and d.attempts = x.attempts
         and d.locked_by = ?::uuid and d.status = 'PENDING'
     )`,
      params: [claimKeys(claims), worker, worker],
    },
  ])) as DeliveryKeyRow[][];
  const gone = new Set(lost.map((r) => `${r.tenant_id}:${r.id}`));
  return claims.filter((c) => gone.has(`${c.tenant_id}:${c.id}`));
}

/**
 * Gives back claims whose attempts this worker abandons unfinished (it is stopping): free to be
 * claimed again at once, by any process, with the attempt uncounted (none was recorded). The
 * receiver may have had the request, so it may get the event twice (delivery is at least once).
 */
export async function releaseClaims(orm: MikroORM, worker: string, claims: readonly Claim[]): Promise<void> {
  if (claims.length === 0) return;
  await inOneTrip(
    orm,
    `update event_delivery d set locked_until = null, locked_by = null, attempts = d.attempts - 1
     from jsonb_to_recordset(?::jsonb) as x(tenant_id uuid, id uuid, attempts int)
     where d.tenant_id = x.tenant_id and d.id = x.id and d.attempts = x.attempts
       and d.locked_by = ?::uuid and d.status = 'PENDING'`,
    [claimKeys(claims), worker],
  );
}

/** The outcome of one attempt. */
export interface Attempt {
  claim: Claim;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
  /** E-mail: the SMTP server accepted the message (not only logged); push: the service took it. */
  sent?: boolean;
  /** Failed for good, whatever attempts are left (the push service says the device is gone). */
  final?: boolean;
}

export interface Recorded {
  /** The attempts recorded (those whose claim this worker still held). */
  attempts: Attempt[];
  /** Endpoints turned off by these attempts. */
  disabled: { tenantId: string; endpointId: string }[];
}

/**
 * Records a batch of attempts in one transaction: DELIVERED on success; otherwise PENDING again
 * after the delivery's backoff, or FAILED once the attempts are used up. Only the holder of the
 * claim writes (a worker that lost it leaves the record to the one that took it over). Then the
 * endpoints: a success closes the circuit and ends the failing streak; failures lengthen the
 * streak, open the circuit past `circuitFailures` in a row (for a backoff that grows with each
 * further failure), and turn off an endpoint failing for longer than `disableAfterMs`.
 */
export async function recordAttempts(
  orm: MikroORM,
  settings: EventSettings,
  worker: string,
  attempts: readonly Attempt[],
): Promise<Recorded> {
  if (attempts.length === 0) return { attempts: [], disabled: [] };
  const { recordedOf, ...statement } = recordStatement(settings, worker, attempts);
  if (plainSuccesses(attempts)) {
    const [updated] = await inOneTripEach(orm, [statement]);
    return { attempts: recordedOf(updated as DeliveryKeyRow[]), disabled: [] };
  }
  return asEventWorker(orm, async (q) => {
    const recorded = recordedOf(await q<DeliveryKeyRow>(statement.sql, statement.params));
    const disabled = await recordEndpoints(q, settings, recorded);
    const sent = recorded.filter((a) => a.sent);
    await markMailed(
      q,
      sent.filter((a) => a.claim.channel === 'EMAIL'),
    );
    await markPushed(
      q,
      sent.filter((a) => a.claim.channel === 'PUSH'),
    );
    return { attempts: recorded, disabled };
  });
}

/**
 * The common case: every attempt a success to an endpoint in good standing and no e-mail or push
 * to mark, so the record is its one statement (no endpoint or notification to write).
 */
export const plainSuccesses = (attempts: readonly Attempt[]): boolean =>
  attempts.every((a) => a.ok && !a.claim.troubled && !a.sent);

/**
 * Records plain successes (`plainSuccesses`) and claims up to `limit` due webhook deliveries in
 * the same transaction, in one round trip: the claim runs after the record and sees it, so the
 * windows the record moved on are claimed from at once, by the same rule as claimWebhooks (a
 * window is its endpoint's oldest undelivered deliveries, as committed with this record).
 */
export async function recordAndClaimWebhooks(
  orm: MikroORM,
  settings: EventSettings,
  worker: string,
  attempts: readonly Attempt[],
  limit: number,
): Promise<{ recorded: Attempt[]; claims: Claim[] }> {
  if (!plainSuccesses(attempts)) throw new Error('recordAndClaimWebhooks: plain successes only');
  const { recordedOf, ...statement } = recordStatement(settings, worker, attempts);
  const [updated, claimed] = await inOneTripEach(orm, [
    statement,
    claimWebhooksStatement(settings, worker, limit),
  ]);
  return {
    recorded: recordedOf(updated as DeliveryKeyRow[]),
    claims: webhookClaimsOf(claimed as ClaimRow[]),
  };
}

/**
 * The statement that records a batch of attempts (only those whose claim this worker still
 * holds), and which of the attempts it recorded, from its rows.
 */
export function recordStatement(settings: EventSettings, worker: string, attempts: readonly Attempt[]) {
  const rows = attempts.map((a) => {
    const last = a.claim.attempts >= settings.maxAttempts;
    const error = a.ok ? null : (a.error?.slice(0, 1000) ?? null);
    return {
      tenant_id: a.claim.tenant_id,
      id: a.claim.id,
      attempts: a.claim.attempts,
      status: a.ok ? 'DELIVERED' : last || a.final ? 'FAILED' : 'PENDING',
      code: a.statusCode,
      error,
      entry: { at: a.at.toISOString(), statusCode: a.statusCode, error, durationMs: a.durationMs },
      delay_ms: a.ok || last || a.final ? null : retryDelay(settings, a.claim.attempts),
    };
  });
  const sql = `update event_delivery d set status = x.status, last_status_code = x.code, last_error = x.error,
       attempt_log = d.attempt_log || jsonb_build_array(x.entry), locked_until = null, locked_by = null,
       updated = now(), version = d.version + 1,
       delivered_at = case when x.status = 'DELIVERED' then now() end,
       next_attempt_at = case when x.delay_ms is null then null
                              else now() + make_interval(secs => x.delay_ms / 1000) end
     from jsonb_to_recordset(?::jsonb)
       as x(tenant_id uuid, id uuid, attempts int, status text, code int, error text, entry jsonb, delay_ms float8)
     where d.tenant_id = x.tenant_id and d.id = x.id and d.attempts = x.attempts
       and d.locked_by = ?::uuid and d.status = 'PENDING'
     returning d.tenant_id, d.id`;
  const recordedOf = (updated: readonly DeliveryKeyRow[]) => {
    const held = new Set(updated.map((r) => `${r.tenant_id}:${r.id}`));
    return attempts.filter((a) => held.has(`${a.claim.tenant_id}:${a.claim.id}`));
  };
  return { sql, params: [JSON.stringify(rows), worker], recordedOf, planEachTime: true };
}

/** The endpoints' side of a batch: circuit, failing streak, and turning off. */
async function recordEndpoints(
  q: Query,
  settings: EventSettings,
  recorded: readonly Attempt[],
): Promise<{ tenantId: string; endpointId: string }[]> {
  // Per endpoint, in the order the attempts ended: failures since its last success in the batch.
  const streaks = new Map<string, { tenantId: string; endpointId: string; ok: boolean; failures: number }>();
  for (const a of [...recorded].sort(
    (x, y) => x.at.getTime() + x.durationMs - (y.at.getTime() + y.durationMs),
  )) {
    if (!a.claim.endpoint_id) continue;
    const key = `${a.claim.tenant_id}:${a.claim.endpoint_id}`;
    const streak = streaks.get(key) ?? {
      tenantId: a.claim.tenant_id,
      endpointId: a.claim.endpoint_id,
      ok: false,
      failures: 0,
    };
    if (a.ok) Object.assign(streak, { ok: true, failures: 0 });
    else streak.failures++;
    streaks.set(key, streak);
  }
  // Healthy again: only those that were not (as claimed) need writing; most never were.
  const troubled = new Set(
    recorded.filter((a) => a.claim.troubled).map((a) => `${a.claim.tenant_id}:${a.claim.endpoint_id}`),
  );
  const healthy = [...streaks.entries()]
    .filter(([key, s]) => s.failures === 0 && troubled.has(key))
    .map(([, s]) => s);
  if (healthy.length > 0)
    await q(
      `update webhook_endpoint e set failing_since = null, consecutive_failures = 0, circuit_open_until = null
       from jsonb_to_recordset(?::jsonb) as x("tenantId" uuid, "endpointId" uuid)
       where e.tenant_id = x."tenantId" and e.id = x."endpointId"
         and (e.failing_since is not null or e.consecutive_failures > 0 or e.circuit_open_until is not null)`,
      [JSON.stringify(healthy.map(({ tenantId, endpointId }) => ({ tenantId, endpointId })))],
    );
  const disabled: { tenantId: string; endpointId: string }[] = [];
  for (const s of streaks.values()) {
    if (s.failures === 0) continue;
    const [endpoint] = await q<{ active: boolean; failing_since: Date; consecutive_failures: number }>(
      `update webhook_endpoint set failing_since = case when ? then now() else coalesce(failing_since, now()) end,
         consecutive_failures = case when ? then ? else consecutive_failures + ? end,
         active = active and (? or coalesce(failing_since, now()) > now() - make_interval(secs => ?::float8 / 1000))
       where tenant_id = ? and id = ? returning active, failing_since, consecutive_failures`,
      [s.ok, s.ok, s.failures, s.failures, s.ok, settings.disableAfterMs, s.tenantId, s.endpointId],
    );
    if (!endpoint) continue;
    if (endpoint.consecutive_failures >= settings.circuitFailures) {
      // Open for a backoff that doubles with every failed probe beyond the threshold.
      const openMs = retryDelay(settings, endpoint.consecutive_failures - settings.circuitFailures + 1);
      await q(
        `update webhook_endpoint set circuit_open_until = now() + make_interval(secs => ?::float8 / 1000)
         where tenant_id = ? and id = ?`,
        [openMs, s.tenantId, s.endpointId],
      );
    }
    if (!endpoint.active) {
      const reason = `every delivery failed since ${new Date(endpoint.failing_since).toISOString()}`;
      const [turnedOff] = await q(
        `update webhook_endpoint set disabled_reason = ? where tenant_id = ? and id = ? and disabled_reason is null
         returning id`,
        [reason, s.tenantId, s.endpointId],
      );
      if (turnedOff) disabled.push({ tenantId: s.tenantId, endpointId: s.endpointId });
    }
  }
  return disabled;
}

/**
 * Runs `update` (its parameters: the tenant, then the ids as a JSON array) for the rows the
 * attempts name by `key` of their target, once per tenant and within it.
 */
async function updateNamed(
  q: Query,
  attempts: readonly Attempt[],
  key: 'notificationId' | 'tokenId',
  update: string,
): Promise<void> {
  const byTenant = new Map<string, string[]>();
  for (const a of attempts) {
    const id = a.claim.target?.[key];
    if (id) byTenant.set(a.claim.tenant_id, [...(byTenant.get(a.claim.tenant_id) ?? []), id]);
  }
  for (const [tenantId, ids] of byTenant) {
    await q(`select set_config('app.tenant_id', ?, true)`, [tenantId]);
    await q(update, [tenantId, JSON.stringify(ids)]);
  }
}

const NAMED_IDS = `tenant_id = ? and id in (select value::uuid from jsonb_array_elements_text(?::jsonb))`;

/** Notifications whose e-mail the SMTP server accepted: marked sent, each within its tenant. */
const markMailed = (q: Query, mailed: readonly Attempt[]) =>
  updateNamed(
    q,
    mailed,
    'notificationId',
    `update notification set email_sent = true, email_sent_at = now(), version = version + 1 where ${NAMED_IDS}`,
  );

/** Devices a push reached: `lastUsed` is when a push was last sent to them. */
const markPushed = (q: Query, pushed: readonly Attempt[]) =>
  updateNamed(q, pushed, 'tokenId', `update push_token set last_used = now() where ${NAMED_IDS}`);

/** How far behind delivery is, in seconds (null: nothing waiting). */
export interface DeliveryLag {
  /** The oldest outbox event not yet fanned out to deliveries. */
  undispatched: number | null;
  /** The oldest undelivered e-mail. */
  email: number | null;
  /** The oldest undelivered push. */
  push: number | null;
  /** The oldest unsent digest (its age counts from the end of its period). */
  digest: number | null;
  /** Per active endpoint with undelivered deliveries: the oldest one's age. */
  webhooks: { tenantId: string; endpointId: string; seconds: number }[];
}

/**
 * The age of the oldest undelivered event, per receiver: each read is the head of an index of the
 * undelivered only (one probe per endpoint), so it costs the same whatever the backlog.
 */
export async function deliveryLag(orm: MikroORM): Promise<DeliveryLag> {
  return asEventWorker(orm, async (q) => {
    const [heads] = await q<{
      undispatched: number | null;
      email: number | null;
      push: number | null;
      digest: number | null;
    }>(
      `select extract(epoch from now() - (select occurred_at from outbox_event where dispatched_at is null
                                          order by occurred_at, id limit 1))::float8 as undispatched,
              extract(epoch from now() - (select occurred_at from event_delivery
                                          where status = 'PENDING' and channel = 'EMAIL'
                                          order by occurred_at limit 1))::float8 as email,
              extract(epoch from now() - (select occurred_at from event_delivery
                                          where status = 'PENDING' and channel = 'PUSH'
                                          order by occurred_at limit 1))::float8 as push,
              extract(epoch from now() - (select occurred_at from event_delivery
                                          where status = 'PENDING' and channel = 'DIGEST'
                                          order by occurred_at limit 1))::float8 as digest`,
    );
    const webhooks = await q<{ tenantId: string; endpointId: string; seconds: number }>(
      `with ${BACKLOG}
       select h.tenant_id as "tenantId", h.endpoint_id as "endpointId",
         extract(epoch from now() - x.occurred_at)::float8 as seconds
       from backlog h
       join webhook_endpoint e on e.tenant_id = h.tenant_id and e.id = h.endpoint_id
       cross join lateral (${headOf('d.occurred_at', 1)}) x
       where e.active`,
    );
    return {
      undispatched: heads?.undispatched ?? null,
      email: heads?.email ?? null,
      push: heads?.push ?? null,
      digest: heads?.digest ?? null,
      webhooks,
    };
  });
}

/**
 * Per tenant of `tenantIds`, how far behind the service itself holds its webhooks, in seconds
 * (0: not behind): the oldest of
 *
 * - the age of the oldest undelivered event of each of its endpoints that is active, in good
 *   standing (no failing streak, no open circuit), not marked slow (`slow_until`), and whose
 *   oldest undelivered delivery has never failed; what waits behind a receiver that fails,
 *   backs off or answers slowly is that receiver's lag, not the service's;
 * - for a tenant with an active endpoint, the age of the oldest event of all not yet fanned out
 *   to deliveries (one queue for every tenant, only the service moves it).
 *
 * One probe per endpoint of these tenants with something waiting (its head in
 * `event_delivery_window_idx`, from `webhook_backlog`), and one of the outbox's undispatched
 * index: the cost does not grow with the backlog.
 */
export async function serviceLag(orm: MikroORM, tenantIds: readonly string[]): Promise<Map<string, number>> {
  if (tenantIds.length === 0) return new Map();
  const rows = await inOneTrip<{ tenant_id: string; seconds: number }>(
    orm,
    `with tenants as (
       select distinct value::uuid as id from jsonb_array_elements_text(?::jsonb)
     ), h as (
       select b.tenant_id, b.endpoint_id, b.pending_from from webhook_backlog b
       join tenants t on t.id = b.tenant_id
       where b.pending_from < 'infinity'
     ), heads as (
       select h.tenant_id, max(extract(epoch from now() - x.occurred_at))::float8 as seconds
       from h
       join webhook_endpoint e on e.tenant_id = h.tenant_id and e.id = h.endpoint_id
       cross join lateral (${headOf('d.occurred_at, d.attempt_log', 1)}) x
       where e.active and e.failing_since is null and e.consecutive_failures = 0
         and e.circuit_open_until is null and (e.slow_until is null or e.slow_until < now())
         and jsonb_array_length(x.attempt_log) = 0
       group by h.tenant_id
     ), dispatch as (
       select extract(epoch from now() - o.occurred_at)::float8 as seconds from outbox_event o
       where o.dispatched_at is null order by o.occurred_at, o.id limit 1
     )
     select t.id as tenant_id, greatest(
         coalesce((select heads.seconds from heads where heads.tenant_id = t.id), 0),
         case when exists (select 1 from webhook_endpoint e where e.tenant_id = t.id and e.active)
              then coalesce((select dispatch.seconds from dispatch), 0) else 0 end) as seconds
     from tenants t`,
    [JSON.stringify(tenantIds)],
  );
  return new Map(rows.map((r) => [r.tenant_id, Math.max(0, Number(r.seconds))]));
}

/** Marks endpoints slow until `forMs` from now (lag-bound.ts): each process that sees one answer late. */
export async function markSlow(
  orm: MikroORM,
  endpoints: readonly { tenantId: string; endpointId: string }[],
  forMs: number,
): Promise<void> {
  if (endpoints.length === 0) return;
  await inOneTrip(
    orm,
    `update webhook_endpoint e set slow_until = now() + make_interval(secs => ?::float8 / 1000)
     from jsonb_to_recordset(?::jsonb) as x("tenantId" uuid, "endpointId" uuid)
     where e.tenant_id = x."tenantId" and e.id = x."endpointId"`,
    [forMs, JSON.stringify(endpoints)],
  );
}

/**
 * Inserts a PENDING e-mail delivery of the tenant for `mail` as composed (its `target`), in
 * `em`'s transaction, written by `by`, reporting the outbox event `eventId`; answers its id.
 */
export async function insertMailDelivery(
  em: EntityManager,
  fields: { tenantId: string; by: string; eventId: string; eventType: string; mail: MailMessage },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    em,
    `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
       event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
     values ($1, gen_random_uuid(), now(), $2, now(), $2, 1, 'EMAIL',
       $3, $4, now(), 'PENDING', 0, now(), '[]'::jsonb, $5::jsonb)
     returning id`,
    [fields.tenantId, fields.by, fields.eventId, fields.eventType, JSON.stringify({ mail: fields.mail })],
  );
  return row.id;
}
