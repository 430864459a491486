import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createECDH, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
// http_ece has no types of its own; decrypt is all the receiver needs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ece = require('http_ece') as {
  decrypt(body: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer;
};

const read = (req: http.IncomingMessage | http2.Http2ServerRequest) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const portOf = (server: http.Server | http2.Http2Server) => (server.address() as AddressInfo).port;

/** A browser's side of a push subscription: the key pair and auth secret it would make. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    ecdh,
    auth,
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    },
  };
}

export interface WebPushReceived {
  device: string;
  payload: Record<string, unknown>;
  claims: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
}

/**
 * A Web Push service on 127.0.0.1, as RFC 8030/8291/8292 define it: each device is a path; a
 * push must carry TTL, `Content-Encoding: aes128gcm` and `Authorization: vapid t=<JWT>, k=<key>`
 * whose ES256 JWT verifies with k (the service's public key, `expectKey`), names this origin as
 * its audience and expires within 24 hours; its body must decrypt (http_ece) with the device's
 * private key and auth secret. A push failing any check is answered 400 and kept in `refused`.
 * `answer(device, nth)` chooses the answer to a good one: a status (201 by default), a status
 * after a delay, or `garbage` (bytes that are no HTTP response).
 */
export async function startWebPushService(
  expectKey: string,
  answer: (device: string, nth: number) => number | { status: number; afterMs: number } | 'garbage' = () =>
    201,
) {
  const devices = new Map<string, ReturnType<typeof browserSubscription>>();
  const received: WebPushReceived[] = [];
  const refused: { device: string; why: string }[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const device = (req.url ?? '').replace(/^\/push\//, '');
    const body = await read(req);
    try {
      const sub = devices.get(device);
      if (!sub) throw new Error(`unknown device ${device}`);
      if (req.method !== 'POST') throw new Error('not a POST');
      if (!/^\d+$/.test(String(req.headers.ttl))) throw new Error('no TTL header');
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const vapid = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization));
      if (!vapid) throw new Error(`no vapid authorization: ${req.headers.authorization}`);
      if (vapid[2] !== expectKey) throw new Error('k is not the service key');
      const point = Buffer.from(vapid[2], 'base64url');
      const key = await importJWK(
        {
          kty: 'EC',
          crv: 'P-256',
          x: point.subarray(1, 33).toString('base64url'),
          y: point.subarray(33, 65).toString('base64url'),
        },
        'ES256',
      );
      const origin = `http://127.0.0.1:${portOf(server)}`;
      const { payload: claims } = await jwtVerify(vapid[1], key, { audience: origin, algorithms: ['ES256'] });
      if (!claims.exp || claims.exp > Date.now() / 1000 + 24 * 3600) throw new Error('exp beyond 24 hours');
      if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new Error('bad sub');
      const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
      const payload = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
      const nth = (counts.get(device) ?? 0) + 1;
      counts.set(device, nth);
      const how = answer(device, nth);
      if (how === 'garbage') {
        // Not HTTP at all: the sender must take it as a failed attempt.
        res.socket?.end('\u0000\u0001garbage\r\n\r\n');
        return;
      }
      const { status, afterMs } = typeof how === 'number' ? { status: how, afterMs: 0 } : how;
      await new Promise((r) => setTimeout(r, afterMs).unref());
      if (res.destroyed) return;
      if (status < 300) received.push({ device, payload, claims, headers: req.headers });
      res.writeHead(status).end();
    } catch (err) {
      refused.push({ device, why: (err as Error).message });
      res.writeHead(400).end((err as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    refused,
    attempts: (device: string) => counts.get(device) ?? 0,
    /** A new device: the PushSubscription JSON its browser would hand the app. */
    device(name: string) {
      const sub = browserSubscription(`http://127.0.0.1:${portOf(server)}/push/${name}`);
      devices.set(name, sub);
      return JSON.stringify(sub.json);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Google service account as its JSON key file has it, with a fresh RSA key. */
export function serviceAccount(tokenUrl: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey,
    json: {
      type: 'service_account',
      project_id: 'demo-project',
      client_email: 'pusher@demo-project.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: tokenUrl,
    },
  };
}

export interface FcmReceived {
  token: string;
  message: Record<string, any>;
}

/**
 * Google's OAuth2 token endpoint and FCM HTTP v1 on 127.0.0.1. POST /token takes the
 * jwt-bearer grant: the assertion must verify (RS256) with the service account's public key,
 * be issued by its client_email for this token URL and the firebase.messaging scope; it answers
 * an access token. POST /v1/projects/demo-project/messages:send must carry that token and a
 * `message` with `token` and `notification`; `answer(token, nth)` chooses the status (200 with
 * a message name by default; 404 answers FCM's UNREGISTERED error).
 */
export async function startFcm(answer: (token: string, nth: number) => number = () => 200) {
  // Made once the port (and so the token URL) is known.
  const made: { account?: ReturnType<typeof serviceAccount> } = {};
  const issued = new Set<string>();
  const exchanges: Record<string, unknown>[] = [];
  const received: FcmReceived[] = [];
  const refused: string[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const body = (await read(req)).toString('utf8');
    const tokenUrl = `http://127.0.0.1:${portOf(server)}/token`;
    try {
      if (req.method === 'POST' && req.url === '/token') {
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
          throw new Error('token request is not a form');
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          throw new Error('grant_type');
        const { payload } = await jwtVerify(
          form.get('assertion') ?? '',
          made.account!.publicKey as KeyObject,
          {
            issuer: made.account!.json.client_email,
            audience: tokenUrl,
            algorithms: ['RS256'],
          },
        );
        if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') throw new Error('scope');
        exchanges.push(payload);
        const access = randomBytes(16).toString('hex');
        issued.add(access);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: access, expires_in: 3599, token_type: 'Bearer' }));
      }
      if (req.method !== 'POST' || req.url !== '/v1/projects/demo-project/messages:send')
        throw new Error(`unexpected ${req.method} ${req.url}`);
      const bearer = /^Bearer (\w+)$/.exec(String(req.headers.authorization));
      if (!bearer || !issued.has(bearer[1])) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 401, status: 'UNAUTHENTICATED' } }));
      }
      if (!String(req.headers['content-type']).startsWith('application/json')) throw new Error('not JSON');
      const { message } = JSON.parse(body) as { message: Record<string, any> };
      if (typeof message?.token !== 'string' || typeof message.notification?.title !== 'string')
        throw new Error('message without token or notification');
      const nth = (counts.get(message.token) ?? 0) + 1;
      counts.set(message.token, nth);
      const status = answer(message.token, nth);
      if (status === 404) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: {
              code: 404,
              status: 'NOT_FOUND',
              message: 'Requested entity was not found.',
              details: [
                { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
              ],
            },
          }),
        );
      }
      if (status < 300) received.push({ token: message.token, message });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status < 300 ? { name: `projects/demo-project/messages/${nth}` } : { error: { code: status } },
        ),
      );
    } catch (err) {
      refused.push((err as Error).message);
      res.writeHead(400).end((err as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${portOf(server)}`;
  const account = (made.account = serviceAccount(`${base}/token`));
  return {
    base,
    account: account.json,
    received,
    refused,
    exchanges,
    attempts: (token: string) => counts.get(token) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ApnsReceived {
  token: string;
  headers: http2.IncomingHttpHeaders;
  body: Record<string, any>;
}

/**
 * APNs on 127.0.0.1 over HTTP/2 without TLS (h2c, prior knowledge): POST /3/device/<token> with
 * `authorization: bearer <JWT>` whose ES256 signature verifies with the provider key, `kid` the
 * key id and `iss` the team; `apns-topic` the app, `apns-push-type: alert`, and a JSON body with
 * `aps.alert`. `answer(token, nth)` chooses the status (200 by default; 410 answers Unregistered).
 */
export async function startApns(answer: (token: string, nth: number) => number = () => 200) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const settings = {
    keyId: 'ABC123DEFG',
    teamId: 'DEF123GHIJ',
    topic: 'com.example.app',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  const received: ApnsReceived[] = [];
  const refused: string[] = [];
  const counts = new Map<string, number>();
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', async () => {
      const reply = (status: number, body?: unknown) => {
        stream.respond({ ':status': status, 'apns-id': String(headers['apns-id'] ?? '') });
        stream.end(body === undefined ? undefined : JSON.stringify(body));
      };
      try {
        const path = /^\/3\/device\/([^/]+)$/.exec(String(headers[':path']));
        if (headers[':method'] !== 'POST' || !path)
          throw new Error(`unexpected ${headers[':method']} ${headers[':path']}`);
        const token = decodeURIComponent(path[1]);
        const bearer = /^bearer (.+)$/.exec(String(headers.authorization));
        if (!bearer) throw new Error('no bearer token');
        const { kid, alg } = decodeProtectedHeader(bearer[1]);
        if (alg !== 'ES256' || kid !== settings.keyId) throw new Error('bad JWT header');
        const { payload } = await jwtVerify(bearer[1], publicKey, {
          issuer: settings.teamId,
          algorithms: ['ES256'],
        });
        if (!payload.iat || Math.abs(payload.iat - Date.now() / 1000) > 3600) throw new Error('iat');
        if (headers['apns-topic'] !== settings.topic) throw new Error('apns-topic');
        if (headers['apns-push-type'] !== 'alert') throw new Error('apns-push-type');
        if (!/^[0-9a-f-]{36}$/.test(String(headers['apns-id']))) throw new Error('apns-id is no UUID');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        if (typeof body.aps?.alert?.title !== 'string') throw new Error('no aps.alert');
        const nth = (counts.get(token) ?? 0) + 1;
        counts.set(token, nth);
        const status = answer(token, nth);
        if (status < 300) {
          received.push({ token, headers, body });
          return reply(200);
        }
        reply(status, {
          reason: status === 410 ? 'Unregistered' : 'InternalServerError',
          timestamp: Date.now(),
        });
      } catch (err) {
        refused.push((err as Error).message);
        reply(403, { reason: (err as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    settings: { ...settings, baseUrl: `http://127.0.0.1:${portOf(server)}` },
    received,
    refused,
    attempts: (token: string) => counts.get(token) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open client sessions keep an http2 server from closing.
        setTimeout(resolve, 500).unref();
      }),
  };
}
