import http2, { type ClientHttp2Session } from 'node:http2';
import { importPKCS8, SignJWT, type KeyLike } from 'jose';
import { failure, type PushNotice, type PushOutcome, type SendOptions } from './payload';
import type { ApnsSettings } from './settings';

const BODY_LIMIT = 4096;
/** Apple refuses a provider token older than an hour and one renewed more than every 20 minutes. */
const TOKEN_AGE_MS = 40 * 60_000;

/**
 * Apple Push Notification service: token-based authentication (an ES256 JWT naming the key and
 * team, renewed every 40 minutes) over one HTTP/2 connection, many streams at once, opened on
 * first use and again after the server closes it. An `http://` base URL speaks HTTP/2 without
 * TLS (prior knowledge), which only a local receiver does; Apple's own addresses are `https://`.
 */
export class ApnsSender {
  private key?: Promise<KeyLike>;
  private jwt?: { value: string; made: number };
  private session?: ClientHttp2Session;

  constructor(private readonly settings: ApnsSettings) {}

  private async providerToken(): Promise<string> {
    if (this.jwt && Date.now() - this.jwt.made < TOKEN_AGE_MS) return this.jwt.value;
    this.key ??= importPKCS8(this.settings.privateKey, 'ES256');
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: this.settings.keyId })
      .setIssuer(this.settings.teamId)
      .setIssuedAt()
      .sign(await this.key);
    this.jwt = { value, made: Date.now() };
    return value;
  }

  private connection(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(this.settings.baseUrl);
    // Errors reach the request that was using the connection; the next send connects anew.
    session.on('error', () => undefined);
    session.on('close', () => {
      if (this.session === session) this.session = undefined;
    });
    session.unref();
    this.session = session;
    return session;
  }

  async send(
    deviceToken: string,
    notice: PushNotice,
    ttlSeconds: number,
    options: SendOptions,
  ): Promise<PushOutcome> {
    const started = Date.now();
    let jwt: string;
    try {
      jwt = await this.providerToken();
    } catch (err) {
      return failure(started, err);
    }
    const { notificationId, title, body, ...rest } = notice;
    const payload = JSON.stringify({
      aps: { alert: { title, body }, sound: 'default' },
      notificationId,
      ...rest,
    });
    return new Promise<PushOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: PushOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal.removeEventListener('abort', abort);
        resolve(outcome);
      };
      let req: http2.ClientHttp2Stream;
      try {
        req = this.connection().request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(deviceToken)}`,
          authorization: `bearer ${jwt}`,
          'apns-topic': this.settings.topic,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          'apns-expiration': String(Math.floor(Date.now() / 1000) + ttlSeconds),
          'apns-id': options.deliveryId,
          'content-type': 'application/json',
        });
      } catch (err) {
        return finish(failure(started, err));
      }
      const timer = setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), options.timeoutMs);
      const abort = () => req.close(http2.constants.NGHTTP2_CANCEL);
      if (options.signal.aborted) abort();
      else options.signal.addEventListener('abort', abort, { once: true });
      let status: number | null = null;
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('response', (headers) => (status = Number(headers[':status'])));
      req.on('data', (chunk: Buffer) => {
        if (size < BODY_LIMIT) chunks.push(chunk.subarray(0, BODY_LIMIT - size));
        size += chunk.length;
      });
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const ok = status !== null && status >= 200 && status < 300;
        let reason = '';
        try {
          reason = String((JSON.parse(text) as { reason?: unknown }).reason ?? '');
        } catch {
          // no JSON: the text itself is kept as the error
        }
        finish({
          statusCode: status,
          error: ok ? null : text || `HTTP ${status}`,
          durationMs: Date.now() - started,
          // 410 Unregistered; a token Apple says is no device token will never become one.
          gone: status === 410 || (status === 400 && reason === 'BadDeviceToken'),
        });
      });
      req.on('close', () =>
        finish(
          failure(
            started,
            new Error(
              status === null
                ? `no answer (${options.signal.aborted ? 'withdrawn' : `closed or timed out after ${options.timeoutMs} ms`})`
                : `stream closed`,
            ),
            status,
          ),
        ),
      );
      req.on('error', (err) => finish(failure(started, err, status)));
      req.end(payload);
    });
  }

  close(): void {
    this.session?.close();
  }
}
