import type { Query } from './store';

/**
 * The statements of digests (digest.ts says what a digest is): the periods of each time zone,
 * the scheduling insert of DIGEST deliveries (`event_delivery`) from the users' settings
 * (`notification_settings`), a digest asked for, and what a digest lists (`notification`,
 * `app_user`, `tenant`). Each runs on `q`: the event worker's transaction, or a request's own.
 */

export const DIGEST_EVENT = 'notification.digest';
export type DigestFrequency = 'DAILY' | 'WEEKLY';

/** A period of a frequency that ended last before a moment, in a time zone. */
export interface DigestPeriodRow {
  zone: string;
  frequency: DigestFrequency;
  from: Date;
  to: Date;
}

/**
 * The period of each frequency that ended last before `now` (an ISO text), [from, to), in each
 * of the time zones `zones` (a JSON array); PostgreSQL's own zones, UTC for one it does not know.
 */
export function digestPeriodRows(q: Query, now: string, zones: string): Promise<DigestPeriodRow[]> {
  return q<DigestPeriodRow>(
    `select z.zone, f.frequency,
       (date_trunc(f.unit, ?::timestamptz at time zone coalesce(k.name, 'UTC')) - f.step) at time zone coalesce(k.name, 'UTC') as "from",
       date_trunc(f.unit, ?::timestamptz at time zone coalesce(k.name, 'UTC')) at time zone coalesce(k.name, 'UTC') as "to"
     from jsonb_array_elements_text(?::jsonb) as z(zone)
     left join pg_timezone_names k on k.name = z.zone
     cross join (values ('DAILY', 'day', interval '1 day'), ('WEEKLY', 'week', interval '7 days')) as f(frequency, unit, step)`,
    [now, now, zones],
  );
}

/** The time zones of tenants where someone's digests are on (UTC aside: tenants without one). */
export async function digestTimeZones(q: Query): Promise<string[]> {
  const zones = await q<{ zone: string }>(
    `select distinct t.settings->>'defaultTimezone' as zone from tenant t
       where t.settings->>'defaultTimezone' is not null
         and exists (select 1 from notification_settings s where s.tenant_id = t.id and s.digest_frequency <> 'OFF')`,
  );
  return zones.map((z) => z.zone);
}

/**
 * Inserts a DIGEST delivery per user of every tenant whose frequency has a period in `periods`
 * (a JSON array of periods by time zone and frequency) with at least one notification its
 * categories and scopes let through; one already there for that period is left alone. Returns
 * how many it inserted.
 */
export async function insertDueDigests(q: Query, periods: string): Promise<number> {
  const rows = await q(
    `with due as (
         select s.tenant_id, s.user_id, s.digest_frequency, s.enabled_categories, s.disabled_scopes, p."to",
           ${digestStart('s', 'p')} as "from"
         from notification_settings s
         join tenant t on t.id = s.tenant_id
         join jsonb_to_recordset(?::jsonb) as p("timeZone" text, frequency text, "from" timestamptz, "to" timestamptz)
           on p."timeZone" = coalesce(t.settings->>'defaultTimezone', 'UTC') and p.frequency = s.digest_frequency
       )
       insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
         event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
       select s.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'DIGEST',
         null, '${DIGEST_EVENT}', s."to", 'PENDING', 0, now(), '[]'::jsonb,
         jsonb_build_object('userId', s.user_id, 'frequency', s.digest_frequency,
           'from', ${isoText('s."from"')}, 'to', ${isoText('s."to"')})
       from due s
       where exists (${includedNotifications('s', 's."from"', 's."to"')})
       on conflict do nothing
       returning 1`,
    [periods],
  );
  return rows.length;
}

/**
 * A period's bound as a digest's target keeps it: the text `Date.toISOString()` makes, in UTC,
 * which the unique index compares and which sorts as time does.
 */
const isoText = (timestamp: string) =>
  `to_char((${timestamp}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Where the digest of `settings`' user for the period `period` ("from", "to") starts: where the
 * user's last digest (scheduled or asked for) ended, when that was less than a period before the
 * period's start; else the period's start.
 */
const digestStart = (settings: string, period: string) =>
  `coalesce((select max((d.target->>'to')::timestamptz) from event_delivery d
     where d.tenant_id = ${settings}.tenant_id and d.channel = 'DIGEST' and d.target->>'userId' = ${settings}.user_id::text
       and d.target->>'to' > ${isoText(`${period}."from" - (${period}."to" - ${period}."from")`)}), ${period}."from")`;

/** A user's digest frequency and the tenant's time zone (UTC when it has none). */
export interface DigestSettingsRow {
  frequency: string;
  zone: string;
}

/** The digest settings of the tenant's user `userId`; undefined when the user has none. */
export async function digestSettingsOf(
  q: Query,
  tenantId: string,
  userId: string,
): Promise<DigestSettingsRow | undefined> {
  const [settings] = await q<DigestSettingsRow>(
    `select s.digest_frequency as frequency, coalesce(t.settings->>'defaultTimezone', 'UTC') as zone
     from notification_settings s join tenant t on t.id = s.tenant_id
     where s.tenant_id = ? and s.user_id = ?`,
    [tenantId, userId],
  );
  return settings;
}

/** Where the digest of the tenant's user for the period [from, to) (ISO texts) starts (digestStart). */
export async function digestStartOf(
  q: Query,
  tenantId: string,
  userId: string,
  from: string,
  to: string,
): Promise<Date> {
  const [start] = await q<{ from: Date }>(
    `select ${digestStart('s', 'p')} as "from"
     from (select ?::uuid as tenant_id, ?::uuid as user_id) s,
          (select ?::timestamptz as "from", ?::timestamptz as "to") p`,
    [tenantId, userId, from, to],
  );
  return start.from;
}

/**
 * Inserts a DIGEST delivery the user asked for, ending at `to` (ISO text), with its `target`;
 * answers its id, or undefined when one for that moment is already there.
 */
export async function insertRequestedDigest(
  q: Query,
  tenantId: string,
  to: string,
  target: object,
): Promise<string | undefined> {
  const [row] = await q<{ id: string }>(
    `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
       event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
     values (?, gen_random_uuid(), now(), 'digest-request', now(), 'digest-request', 1, 'DIGEST',
       null, '${DIGEST_EVENT}', ?, 'PENDING', 0, now(), '[]'::jsonb, ?::jsonb)
     on conflict do nothing
     returning id`,
    [tenantId, to, JSON.stringify(target)],
  );
  return row?.id;
}

/** The notifications of `settings`' user in [from, to) that its categories and scopes let through. */
const includedNotifications = (settings: string, from: string, to: string) =>
  `select 1 from notification n
   where n.tenant_id = ${settings}.tenant_id and n.user_id = ${settings}.user_id
     and n.created >= ${from} and n.created < ${to}
     and n.category = any(${settings}.enabled_categories)
     and not coalesce(n.scope = any(${settings}.disabled_scopes), false)`;

/** A digest's recipient: address, language (the user's, else the tenant's) and settings. */
export interface DigestRecipientRow {
  email: string;
  language: string | null;
  frequency: string;
  zone: string;
}

/** The tenant's active user `userId` with its digest settings; undefined otherwise. */
export async function digestRecipient(
  q: Query,
  tenantId: string,
  userId: string,
): Promise<DigestRecipientRow | undefined> {
  const [who] = await q<DigestRecipientRow>(
    `select u.email, coalesce(nullif(u.language, ''), t.settings->>'defaultLanguage') as language,
           s.digest_frequency as frequency, coalesce(t.settings->>'defaultTimezone', 'UTC') as zone
         from app_user u join tenant t on t.id = u.tenant_id
         join notification_settings s on s.tenant_id = u.tenant_id and s.user_id = u.id
         where u.tenant_id = ? and u.id = ? and u.status = 'ACTIVE'`,
    [tenantId, userId],
  );
  return who;
}

/** A notification as a digest lists it, with how many the digest's window holds in all. */
export interface DigestItemRow {
  title: string | null;
  body: string | null;
  actionUrl: string | null;
  created: Date;
  category: string;
  total: number;
}

/**
 * The first `limit` notifications of the user in [from, to) (ISO texts) that its categories and
 * scopes let through, oldest first.
 */
export function digestItems(
  q: Query,
  tenantId: string,
  userId: string,
  from: string,
  to: string,
  limit: number,
): Promise<DigestItemRow[]> {
  return q<DigestItemRow>(
    `select n.title, n.body, n.action_url as "actionUrl", n.created, n.category, count(*) over () as total
         from notification n join notification_settings s on s.tenant_id = n.tenant_id and s.user_id = n.user_id
         where n.tenant_id = ? and n.user_id = ? and n.created >= ?::timestamptz and n.created < ?::timestamptz
           and n.category = any(s.enabled_categories) and not coalesce(n.scope = any(s.disabled_scopes), false)
         order by n.created, n.id limit ${limit}`,
    [tenantId, userId, from, to],
  );
}

/** Turns the digest of the tenant's user off; false when the user has no settings. */
export async function turnDigestOff(q: Query, tenantId: string, userId: string): Promise<boolean> {
  return (
    (
      await q(
        `update notification_settings set digest_frequency = 'OFF', updated = now(), updated_by = 'unsubscribe-link',
             version = version + 1
           where tenant_id = ? and user_id = ? returning 1`,
        [tenantId, userId],
      )
    ).length > 0
  );
}
