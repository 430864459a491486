/** What a push carries: the notification as its recipient may see it, and nothing else. */
export interface PushNotice {
  notificationId: string;
  title: string;
  body: string;
  actionUrl: string | null;
  category: string;
  type: string;
  scope: string | null;
  createdAt: string;
}

/**
 * The push services take about 4 KB of payload (Web Push after encryption, APNs and FCM as
 * JSON). A notification's body may be far longer, so it is cut (at a character, never inside
 * one) until the whole notice fits; the recipient opens the notification for the rest.
 */
export const PUSH_PAYLOAD_LIMIT = 3000;

export function fitNotice(notice: PushNotice, limit = PUSH_PAYLOAD_LIMIT): PushNotice {
  const size = (n: PushNotice) => Buffer.byteLength(JSON.stringify(n));
  let fitted = { ...notice, title: [...notice.title].slice(0, 200).join('') };
  if (fitted.actionUrl && Buffer.byteLength(fitted.actionUrl) > 1000) fitted.actionUrl = null;
  let chars = [...fitted.body];
  while (size(fitted) > limit && chars.length > 0) {
    chars = chars.slice(0, Math.floor(chars.length * 0.8));
    fitted = { ...fitted, body: `${chars.join('')}…` };
  }
  return fitted;
}

/** The outcome of one push: `gone` when the push service says the device is no more (404, 410). */
export interface PushOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  gone: boolean;
}

export interface SendOptions {
  timeoutMs: number;
  /** Web Push endpoints on private or loopback addresses (development and tests only). */
  allowPrivate: boolean;
  signal: AbortSignal;
  /** The delivery's id: APNs takes it as `apns-id`, so a repeated attempt is recognisably the same. */
  deliveryId: string;
}

/** A fetch bounded by the attempt's time and withdrawn with its delivery. */
export function boundedSignal(options: Pick<SendOptions, 'signal' | 'timeoutMs'>): AbortSignal {
  return AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
}

export const failure = (started: number, error: unknown, statusCode: number | null = null): PushOutcome => ({
  statusCode,
  error: error instanceof Error ? error.message : String(error),
  durationMs: Date.now() - started,
  gone: false,
});
