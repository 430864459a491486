import webpush from 'web-push';
import { postBytes } from '../http-post';
import { failure, type PushOutcome, type SendOptions } from './payload';
import type { WebPushKeys } from './settings';

/** A browser's PushSubscription as stored (push-subscription.ts checks and normalises it). */
interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** How long a VAPID JWT is valid (RFC 8292 allows at most 24 hours), and how long one is reused. */
const VAPID_LIFETIME_S = 12 * 3600;
const VAPID_REUSE_MS = 3600_000;
/** Push services are few (one origin per browser vendor); a bound all the same. */
const VAPID_CACHE_LIMIT = 1000;

const vapidCache = new Map<string, { authorization: string; until: number }>();

/**
 * The VAPID `Authorization` header for the push service at `audience` (its origin). Signing it is
 * most of a push's CPU (far more than the encryption), and the JWT names only the origin, so one is
 * made per origin and used for an hour.
 */
function vapidAuthorization(keys: WebPushKeys, audience: string): string {
  const key = `${keys.publicKey} ${audience}`;
  const cached = vapidCache.get(key);
  if (cached && cached.until > Date.now()) return cached.authorization;
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    keys.subject,
    keys.publicKey,
    keys.privateKey,
    'aes128gcm',
    Math.floor(Date.now() / 1000) + VAPID_LIFETIME_S,
  );
  if (vapidCache.size >= VAPID_CACHE_LIMIT) vapidCache.clear();
  vapidCache.set(key, { authorization: Authorization, until: Date.now() + VAPID_REUSE_MS });
  return Authorization;
}

/**
 * Sends one Web Push message (RFC 8030): web-push encrypts the payload for the subscription
 * (RFC 8291, aes128gcm) and signs the VAPID JWT for the endpoint's origin (RFC 8292); the POST
 * itself goes out as webhooks do (kept-alive connections, bounded time, no redirects, the
 * endpoint's address checked again, since the browser chose it).
 */
export async function sendWebPush(
  keys: WebPushKeys,
  ttlSeconds: number,
  token: string,
  payload: string,
  options: SendOptions,
): Promise<PushOutcome> {
  const started = Date.now();
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    const subscription = JSON.parse(token) as Subscription;
    details = webpush.generateRequestDetails(subscription, payload, {
      // Signed here, once per push service (vapidAuthorization), not by web-push for every push;
      // web-push takes a falsy value as "no VAPID" (its types do not say so).
      vapidDetails: null as never,
      TTL: ttlSeconds,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    });
    const endpoint = new URL(details.endpoint);
    details.headers.Authorization = vapidAuthorization(keys, `${endpoint.protocol}//${endpoint.host}`);
  } catch (err) {
    return failure(started, err);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
  const outcome = await postBytes(details.endpoint, headers, details.body ?? Buffer.alloc(0), {
    timeoutMs: options.timeoutMs,
    allowPrivate: options.allowPrivate,
    signal: options.signal,
  });
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  return {
    ...outcome,
    error: ok ? null : (outcome.error ?? `HTTP ${outcome.statusCode}`),
    gone: outcome.statusCode === 404 || outcome.statusCode === 410,
  };
}
