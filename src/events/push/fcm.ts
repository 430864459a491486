import { importPKCS8, SignJWT, type KeyLike } from 'jose';
import { boundedSignal, failure, type PushNotice, type PushOutcome, type SendOptions } from './payload';
import type { FcmSettings } from './settings';

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const BODY_LIMIT = 4096;

/**
 * Firebase Cloud Messaging, HTTP v1. The service account proves itself with a JWT it signs
 * (RS256, RFC 7523), exchanged at the token URL for an OAuth2 access token, kept until shortly
 * before it expires and shared by every send; a 401 drops it so the next attempt gets a new one.
 */
export class FcmSender {
  private key?: Promise<KeyLike>;
  private access?: { token: string; until: number };
  private pending?: Promise<string>;

  constructor(private readonly settings: FcmSettings) {}

  private async accessToken(options: SendOptions): Promise<string> {
    if (this.access && this.access.until > Date.now()) return this.access.token;
    this.pending ??= this.exchange(options).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async exchange(options: SendOptions): Promise<string> {
    this.key ??= importPKCS8(this.settings.privateKey, 'RS256');
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.settings.clientEmail)
      .setAudience(this.settings.tokenUrl)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await this.key);
    const res = await fetch(this.settings.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: boundedSignal(options),
    });
    const text = (await res.text()).slice(0, BODY_LIMIT);
    if (!res.ok) throw new Error(`FCM token exchange answered ${res.status}: ${text}`);
    let answer: { access_token?: unknown; expires_in?: unknown };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new Error(`FCM token exchange answered what is not JSON: ${text.slice(0, 200)}`);
    }
    if (typeof answer.access_token !== 'string' || !answer.access_token)
      throw new Error('FCM token exchange answered no access_token');
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    this.access = { token: answer.access_token, until: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return this.access.token;
  }

  async send(
    deviceToken: string,
    notice: PushNotice,
    ttlSeconds: number,
    options: SendOptions,
  ): Promise<PushOutcome> {
    const started = Date.now();
    try {
      const token = await this.accessToken(options);
      const message = {
        message: {
          token: deviceToken,
          notification: { title: notice.title, body: notice.body },
          // FCM data values are strings only.
          data: Object.fromEntries(
            Object.entries(notice)
              .filter(([, v]) => v !== null)
              .map(([k, v]) => [k, String(v)]),
          ),
          android: { ttl: `${ttlSeconds}s`, priority: 'HIGH' },
        },
      };
      const res = await fetch(
        `${this.settings.baseUrl}/v1/projects/${encodeURIComponent(this.settings.projectId)}/messages:send`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
          body: JSON.stringify(message),
          signal: boundedSignal(options),
        },
      );
      const text = (await res.text()).slice(0, BODY_LIMIT);
      if (res.status === 401) this.access = undefined;
      const ok = res.status >= 200 && res.status < 300;
      return {
        statusCode: res.status,
        error: ok ? null : text || `HTTP ${res.status}`,
        durationMs: Date.now() - started,
        // 404 UNREGISTERED: the app was removed or the token expired.
        gone: res.status === 404 || res.status === 410,
      };
    } catch (err) {
      return failure(started, err);
    }
  }
}
