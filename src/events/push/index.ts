import { ApnsSender } from './apns';
import { FcmSender } from './fcm';
import { fitNotice, type PushNotice, type PushOutcome, type SendOptions } from './payload';
import type { PushSettings } from './settings';
import { sendWebPush } from './web';

/** The push service a platform's tokens go to (also the `endpoint` label of the delivery metrics). */
export const SERVICE_OF: Record<string, string> = { WEB: 'webpush', ANDROID: 'fcm', IOS: 'apns' };

/** The configured push senders of one worker; FCM's access token and APNs' connection are shared. */
export class PushSenders {
  private readonly fcm?: FcmSender;
  private readonly apns?: ApnsSender;

  constructor(private readonly settings: PushSettings) {
    if (settings.fcm) this.fcm = new FcmSender(settings.fcm);
    if (settings.apns) this.apns = new ApnsSender(settings.apns);
  }

  async send(
    platform: string,
    token: string,
    notice: PushNotice,
    options: SendOptions,
  ): Promise<PushOutcome> {
    const fitted = fitNotice(notice);
    const ttl = this.settings.ttlSeconds;
    if (platform === 'WEB' && this.settings.web)
      return sendWebPush(this.settings.web, ttl, token, JSON.stringify(fitted), options);
    if (platform === 'ANDROID' && this.fcm) return this.fcm.send(token, fitted, ttl, options);
    if (platform === 'IOS' && this.apns) return this.apns.send(token, fitted, ttl, options);
    return {
      statusCode: null,
      error: `no sender is configured for ${platform} devices`,
      durationMs: 0,
      gone: false,
    };
  }

  close(): void {
    this.apns?.close();
  }
}
