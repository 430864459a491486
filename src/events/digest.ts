import { createHmac } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { asEventWorker, type Query } from './store';
import {
  digestItems,
  digestPeriodRows,
  digestRecipient,
  digestSettingsOf,
  digestStartOf,
  digestTimeZones,
  insertDueDigests,
  insertRequestedDigest,
  turnDigestOff,
  type DigestFrequency,
} from './digest-repository';
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
  const rows = await digestPeriodRows(
    q,
    now.toISOString(),
    JSON.stringify([...new Set(['UTC', ...timeZones])]),
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
    const zones = await digestTimeZones(q);
    const periods = await digestPeriods(q, zones, now);
    return insertDueDigests(q, JSON.stringify(periods));
  });
}

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
  const settings = await digestSettingsOf(q, tenantId, userId);
  if (!settings || (settings.frequency !== 'DAILY' && settings.frequency !== 'WEEKLY')) return { off: true };
  const frequency: DigestFrequency = settings.frequency;
  const period = (await digestPeriods(q, [settings.zone], now)).find(
    (p) => p.timeZone === settings.zone && p.frequency === frequency,
  )!;
  const start = await digestStartOf(q, tenantId, userId, period.from.toISOString(), period.to.toISOString());
  return { off: false, frequency, timeZone: settings.zone, from: new Date(start), to: now };
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
  const id = await insertRequestedDigest(
    q,
    tenantId,
    preview.to.toISOString(),
    digestTarget(userId, preview),
  );
  return { preview, deliveryId: id ?? null };
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
  const who = await digestRecipient(q, tenantId, target.userId);
  if (!who || who.frequency === 'OFF') return null;
  const items = await digestItems(q, tenantId, target.userId, target.from, target.to, DIGEST_ITEMS);
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
  return asEventWorker(orm, (q) => turnDigestOff(q, tenantId, userId), tenantId);
}
