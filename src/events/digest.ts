import { createHmac } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { asEventWorker, type Query } from './store';
import type { EventSettings } from './settings';

/**
 * E-mail digests: once a period, each user whose `digestFrequency` asks for one gets a single
 * e-mail summarising the notifications of that period: the previous day, or the previous ISO week
 * (Monday to Monday), in the tenant's `defaultTimezone` (UTC when it has none), so a daily digest
 * covers a day as the people of the tenant live it, 23 or 25 hours long when clocks change.
 * Periods follow one another: a digest starts where the user's previous one ended, when that was
 * less than a period before, so changing the tenant's time zone or the user's frequency neither
 * repeats a notification nor drops one.
 *
 * Scheduling is a single insert of one DIGEST delivery per user and period, run every
 * `digestIntervalMs` by the `events.digests` scheduled job (src/jobs/kernel-jobs.ts); a unique
 * index on (tenant, user, period end) makes a second insert (a manual run, a period retried) a
 * no-op. The delivery then goes as notification e-mail goes
 * (claimed under a lease, retried with backoff), so it is sent once, and again only if a process
 * dies between the SMTP server's acceptance and recording it.
 */

export const DIGEST_EVENT = 'notification.digest';
export type DigestFrequency = 'DAILY' | 'WEEKLY';

export interface DigestPeriod {
  timeZone: string;
  frequency: DigestFrequency;
  from: Date;
  to: Date;
}

/**
 * The period of each frequency that ended last before `now`, [from, to), in each of `timeZones`.
 * PostgreSQL computes them, as it compares the notifications' times; a zone it does not know (the
 * service checks names with Node's ICU when they are written) gets UTC's periods.
 */
export async function digestPeriods(
  q: Query,
  timeZones: readonly string[],
  now: Date,
): Promise<DigestPeriod[]> {
  const rows = await q<{ zone: string; frequency: DigestFrequency; from: Date; to: Date }>(
    `select z.zone, f.frequency,
       (date_trunc(f.unit, ?::timestamptz at time zone coalesce(k.name, 'UTC')) - f.step) at time zone coalesce(k.name, 'UTC') as "from",
       date_trunc(f.unit, ?::timestamptz at time zone coalesce(k.name, 'UTC')) at time zone coalesce(k.name, 'UTC') as "to"
     from jsonb_array_elements_text(?::jsonb) as z(zone)
     left join pg_timezone_names k on k.name = z.zone
     cross join (values ('DAILY', 'day', interval '1 day'), ('WEEKLY', 'week', interval '7 days')) as f(frequency, unit, step)`,
    [now.toISOString(), now.toISOString(), JSON.stringify([...new Set(['UTC', ...timeZones])])],
  );
  return rows.map((r) => ({
    timeZone: r.zone,
    frequency: r.frequency,
    from: new Date(r.from),
    to: new Date(r.to),
  }));
}

/**
 * Schedules the digests due at `now`, of every tenant, for users who had at least one
 * notification in the period that their categories and scopes let through; returns how many
 * this call inserted (those another process inserted first are not counted).
 */
export async function scheduleDigests(orm: MikroORM, now = new Date()): Promise<number> {
  return asEventWorker(orm, async (q) => {
    const zones = await q<{ zone: string }>(
      `select distinct t.settings->>'defaultTimezone' as zone from tenant t
       where t.settings->>'defaultTimezone' is not null
         and exists (select 1 from notification_settings s where s.tenant_id = t.id and s.digest_frequency <> 'OFF')`,
    );
    const periods = await digestPeriods(
      q,
      zones.map((z) => z.zone),
      now,
    );
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
      [JSON.stringify(periods)],
    );
    return rows.length;
  });
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

/** What a digest of `userId` sent now would cover; `off` while the user's digests are off. */
export type DigestWindow =
  { off: true } | { off: false; frequency: DigestFrequency; timeZone: string; from: Date; to: Date };

/**
 * The window of a digest sent now: from where the user's next scheduled digest would start (that
 * of the period that ended last, which the scheduler may not have sent yet) up to `now`. A digest
 * sent for it moves the start of the next scheduled one to `now` (digestStart), so the two
 * neither repeat a notification nor drop one.
 */
async function windowNow(q: Query, tenantId: string, userId: string, now: Date): Promise<DigestWindow> {
  const [settings] = await q<{ frequency: string; zone: string }>(
    `select s.digest_frequency as frequency, coalesce(t.settings->>'defaultTimezone', 'UTC') as zone
     from notification_settings s join tenant t on t.id = s.tenant_id
     where s.tenant_id = ? and s.user_id = ?`,
    [tenantId, userId],
  );
  if (!settings || (settings.frequency !== 'DAILY' && settings.frequency !== 'WEEKLY')) return { off: true };
  const frequency: DigestFrequency = settings.frequency;
  const period = (await digestPeriods(q, [settings.zone], now)).find(
    (p) => p.timeZone === settings.zone && p.frequency === frequency,
  )!;
  const [start] = await q<{ from: Date }>(
    `select ${digestStart('s', 'p')} as "from"
     from (select ?::uuid as tenant_id, ?::uuid as user_id) s,
          (select ?::timestamptz as "from", ?::timestamptz as "to") p`,
    [tenantId, userId, period.from.toISOString(), period.to.toISOString()],
  );
  return { off: false, frequency, timeZone: settings.zone, from: new Date(start.from), to: now };
}

/** A digest as its user would receive it now: its window, what it lists, and the e-mail. */
export interface DigestPreview {
  off: false;
  frequency: DigestFrequency;
  from: Date;
  to: Date;
  /** Null when nothing in the window would be listed: no digest would be sent. */
  content: DigestContent | null;
  mail: { subject: string; text: string; html: string } | null;
}

/**
 * The digest `userId` would receive if it were sent now; `off` while the user's digests are off.
 * `q` runs in a transaction bound to the user's tenant (the request's own).
 */
export async function previewDigest(
  q: Query,
  settings: Pick<EventSettings, 'linkSecret' | 'publicUrl'>,
  tenantId: string,
  userId: string,
  now = new Date(),
): Promise<DigestPreview | { off: true }> {
  const window = await windowNow(q, tenantId, userId, now);
  if (window.off) return window;
  const content =
    window.from < window.to ? await readDigestContent(q, tenantId, digestTarget(userId, window)) : null;
  const mail = content ? composeDigest(content, await unsubscribeLink(settings, tenantId, userId)) : null;
  return { off: false, frequency: window.frequency, from: window.from, to: window.to, content, mail };
}

const digestTarget = (userId: string, window: { frequency: string; from: Date; to: Date }) => ({
  userId,
  frequency: window.frequency,
  from: window.from.toISOString(),
  to: window.to.toISOString(),
  requested: true,
});

/**
 * Queues the digest `userId` would receive now, as a DIGEST delivery that the event worker sends
 * as it sends every digest; answers its id with the preview, or the preview alone when there is
 * nothing to send (digests off, or no notification in the window).
 */
export async function requestDigest(
  q: Query,
  settings: Pick<EventSettings, 'linkSecret' | 'publicUrl'>,
  tenantId: string,
  userId: string,
  now = new Date(),
): Promise<{ preview: DigestPreview | { off: true }; deliveryId: string | null }> {
  const preview = await previewDigest(q, settings, tenantId, userId, now);
  if (preview.off || !preview.content) return { preview, deliveryId: null };
  const [row] = await q<{ id: string }>(
    `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
       event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
     values (?, gen_random_uuid(), now(), 'digest-request', now(), 'digest-request', 1, 'DIGEST',
       null, '${DIGEST_EVENT}', ?, 'PENDING', 0, now(), '[]'::jsonb, ?::jsonb)
     on conflict do nothing
     returning id`,
    [tenantId, preview.to.toISOString(), JSON.stringify(digestTarget(userId, preview))],
  );
  return { preview, deliveryId: row?.id ?? null };
}

/** The signed link that turns `userId`'s digests off; none without a secret to sign it with. */
export async function unsubscribeLink(
  settings: Pick<EventSettings, 'linkSecret' | 'publicUrl'>,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  return settings.linkSecret
    ? `${settings.publicUrl}/unsubscribe?token=${await unsubscribeToken(settings.linkSecret, tenantId, userId)}`
    : undefined;
}

/** The notifications of `settings`' user in [from, to) that its categories and scopes let through. */
const includedNotifications = (settings: string, from: string, to: string) =>
  `select 1 from notification n
   where n.tenant_id = ${settings}.tenant_id and n.user_id = ${settings}.user_id
     and n.created >= ${from} and n.created < ${to}
     and n.category = any(${settings}.enabled_categories)
     and not coalesce(n.scope = any(${settings}.disabled_scopes), false)`;

/** What a digest's e-mail is made of: the recipient, the notifications, the language. */
export interface DigestContent {
  email: string;
  language: string;
  frequency: DigestFrequency;
  /** The tenant's time zone, in which a digest asked for says since when it lists. */
  timeZone: string;
  from: Date;
  /** A digest its user asked for (since the last one) rather than a period's. */
  requested: boolean;
  total: number;
  items: {
    title: string | null;
    body: string | null;
    actionUrl: string | null;
    created: Date;
    category: string;
  }[];
}

/** Most a digest lists; the rest are counted ("and 12 more"). */
const DIGEST_ITEMS = 50;

/**
 * Reads what the digest of `target` says, within its tenant; null when there is nothing to send
 * (the user turned digests off since, is gone or inactive, or the notifications were deleted).
 */
export function digestContent(
  orm: MikroORM,
  tenantId: string,
  target: DigestTarget,
): Promise<DigestContent | null> {
  return asEventWorker(orm, (q) => readDigestContent(q, tenantId, target), tenantId);
}

type DigestTarget = { userId: string; frequency: string; from: string; to: string; requested?: boolean };

/** digestContent, in a transaction bound to the tenant (`q`). */
async function readDigestContent(
  q: Query,
  tenantId: string,
  target: DigestTarget,
): Promise<DigestContent | null> {
  const [who] = await q<{ email: string; language: string | null; frequency: string; zone: string }>(
    `select u.email, coalesce(nullif(u.language, ''), t.settings->>'defaultLanguage') as language,
           s.digest_frequency as frequency, coalesce(t.settings->>'defaultTimezone', 'UTC') as zone
         from app_user u join tenant t on t.id = u.tenant_id
         join notification_settings s on s.tenant_id = u.tenant_id and s.user_id = u.id
         where u.tenant_id = ? and u.id = ? and u.status = 'ACTIVE'`,
    [tenantId, target.userId],
  );
  if (!who || who.frequency === 'OFF') return null;
  const items = await q<DigestContent['items'][number] & { total: number }>(
    `select n.title, n.body, n.action_url as "actionUrl", n.created, n.category, count(*) over () as total
         from notification n join notification_settings s on s.tenant_id = n.tenant_id and s.user_id = n.user_id
         where n.tenant_id = ? and n.user_id = ? and n.created >= ?::timestamptz and n.created < ?::timestamptz
           and n.category = any(s.enabled_categories) and not coalesce(n.scope = any(s.disabled_scopes), false)
         order by n.created, n.id limit ${DIGEST_ITEMS}`,
    [tenantId, target.userId, target.from, target.to],
  );
  if (items.length === 0) return null;
  return {
    email: who.email,
    language: who.language ?? 'en',
    frequency: target.frequency === 'WEEKLY' ? 'WEEKLY' : 'DAILY',
    timeZone: who.zone,
    from: new Date(target.from),
    requested: target.requested === true,
    total: Number(items[0].total),
    items: items.map(({ total: _total, ...item }) => item),
  };
}

const TEXTS = {
  en: {
    subject: (f: DigestFrequency, n: number) =>
      `Your ${f === 'DAILY' ? 'daily' : 'weekly'} summary: ${n} notification${n === 1 ? '' : 's'}`,
    intro: (f: DigestFrequency) => `Here is what happened ${f === 'DAILY' ? 'yesterday' : 'last week'}.`,
    since: (when: string) => `Here is what happened since ${when}.`,
    more: (n: number) => `… and ${n} more.`,
    unsubscribe: 'Stop these summaries',
    open: 'Open',
  },
  de: {
    subject: (f: DigestFrequency, n: number) =>
      `Ihre ${f === 'DAILY' ? 'tägliche' : 'wöchentliche'} Zusammenfassung: ${n} Benachrichtigung${n === 1 ? '' : 'en'}`,
    intro: (f: DigestFrequency) => `Das ist ${f === 'DAILY' ? 'gestern' : 'letzte Woche'} passiert.`,
    since: (when: string) => `Das ist seit ${when} passiert.`,
    more: (n: number) => `… und ${n} weitere.`,
    unsubscribe: 'Diese Zusammenfassungen abbestellen',
    open: 'Öffnen',
  },
  fi: {
    subject: (f: DigestFrequency, n: number) =>
      `${f === 'DAILY' ? 'Päivän' : 'Viikon'} yhteenveto: ${n} ilmoitus${n === 1 ? '' : 'ta'}`,
    intro: (f: DigestFrequency) => `Tässä mitä tapahtui ${f === 'DAILY' ? 'eilen' : 'viime viikolla'}.`,
    since: (when: string) => `Tässä mitä on tapahtunut ${when} jälkeen.`,
    more: (n: number) => `… ja ${n} muuta.`,
    unsubscribe: 'Lopeta nämä yhteenvedot',
    open: 'Avaa',
  },
} as const;

/** The digest's language: the user's, else the tenant's, where a translation exists; else English. */
export function digestLanguage(language: string): keyof typeof TEXTS {
  const primary = language.toLowerCase().split(/[-_]/)[0];
  return primary in TEXTS ? (primary as keyof typeof TEXTS) : 'en';
}

/** A moment as the digest's reader reads it: in their language, in the tenant's time zone. */
function moment(at: Date, language: string, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(at);
  try {
    return format(timeZone);
  } catch {
    // A zone PostgreSQL knows and this Node's ICU does not: the periods fall back to UTC alike.
    return `${format('UTC')} UTC`;
  }
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The digest as an e-mail: subject, plain text and HTML, with the unsubscribe link when there is one. */
export function composeDigest(
  content: DigestContent,
  unsubscribeUrl: string | undefined,
): { subject: string; text: string; html: string } {
  const language = digestLanguage(content.language);
  const t = TEXTS[language];
  const intro = content.requested
    ? t.since(moment(content.from, language, content.timeZone))
    : t.intro(content.frequency);
  const safeUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);
  const more = content.total - content.items.length;
  const text = [
    intro,
    '',
    ...content.items.map((n) =>
      [`- ${n.title ?? ''}`, n.body ? `  ${n.body}` : '', safeUrl(n.actionUrl) ? `  ${n.actionUrl}` : '']
        .filter(Boolean)
        .join('\n'),
    ),
    ...(more > 0 ? ['', t.more(more)] : []),
    ...(unsubscribeUrl ? ['', `${t.unsubscribe}: ${unsubscribeUrl}`] : []),
  ].join('\n');
  const html = `<!doctype html><html lang="${digestLanguage(content.language)}"><body>
<p>${escapeHtml(intro)}</p>
<ul>
${content.items
  .map((n) => {
    const url = safeUrl(n.actionUrl);
    return `<li><strong>${escapeHtml(n.title ?? '')}</strong>${n.body ? `<br>${escapeHtml(n.body)}` : ''}${
      url ? ` <a href="${escapeHtml(url)}">${escapeHtml(t.open)}</a>` : ''
    }</li>`;
  })
  .join('\n')}
</ul>
${more > 0 ? `<p>${escapeHtml(t.more(more))}</p>` : ''}
${unsubscribeUrl ? `<p><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(t.unsubscribe)}</a></p>` : ''}
</body></html>`;
  return { subject: t.subject(content.frequency, content.total), text, html };
}

const AUDIENCE = 'digest-unsubscribe';
/** How long an unsubscribe link works: long after its digest, as people read old mail. */
const LINK_LIFETIME = '90d';

/** A key of its own for the links, derived from the service's secret (never the secret itself). */
const linkKey = (secret: string) => createHmac('sha256', secret).update(AUDIENCE).digest();

/** The signed token of an unsubscribe link: who (tenant, user), for what, until when. */
export function unsubscribeToken(
  secret: string,
  tenantId: string,
  userId: string,
  expires: string | Date = LINK_LIFETIME,
): Promise<string> {
  return new SignJWT({ tid: tenantId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(linkKey(secret));
}

export class UnsubscribeTokenError extends Error {}

/** The tenant and user of a valid unsubscribe token; UnsubscribeTokenError saying why otherwise. */
export async function verifyUnsubscribeToken(
  secret: string,
  token: string,
): Promise<{ tenantId: string; userId: string }> {
  try {
    const { payload } = await jwtVerify(token, linkKey(secret), {
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    if (typeof payload.tid !== 'string' || typeof payload.sub !== 'string')
      throw new UnsubscribeTokenError('the unsubscribe link is not valid');
    return { tenantId: payload.tid, userId: payload.sub };
  } catch (err) {
    if (err instanceof UnsubscribeTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired)
      throw new UnsubscribeTokenError(
        'the unsubscribe link has expired: change the digest in your notification settings',
      );
    throw new UnsubscribeTokenError('the unsubscribe link is not valid (altered or not ours)');
  }
}

/** Turns the digest off for the token's user, within its tenant; false when the user has no settings. */
export async function unsubscribeFromDigests(
  orm: MikroORM,
  tenantId: string,
  userId: string,
): Promise<boolean> {
  return asEventWorker(
    orm,
    async (q) =>
      (
        await q(
          `update notification_settings set digest_frequency = 'OFF', updated = now(), updated_by = 'unsubscribe-link',
             version = version + 1
           where tenant_id = ? and user_id = ? returning 1`,
          [tenantId, userId],
        )
      ).length > 0,
    tenantId,
  );
}
