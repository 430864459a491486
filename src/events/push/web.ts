import webpush from 'web-push';
import { postBytes } from '../http-post';
import { failure, type PushOutcome, type SendOptions } from './payload';
import type { WebPushKeys } from './settings';

/** A browser's PushSubscription as stored (push-subscription.ts checks and normalises it). */
interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
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
      vapidDetails: keys,
      TTL: ttlSeconds,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    });
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
