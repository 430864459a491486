import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { intFrom } from '../../env-values';

/** Web Push (VAPID, RFC 8292): the key pair that signs every push and the contact it names. */
export interface WebPushKeys {
  /** Uncompressed P-256 public key, base64url (what browsers take as `applicationServerKey`). */
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` contact the push services may use. */
  subject: string;
}

/** Firebase Cloud Messaging, HTTP v1: a service account and where to reach Google. */
export interface FcmSettings {
  projectId: string;
  clientEmail: string;
  /** PEM (PKCS #8) private key of the service account. */
  privateKey: string;
  /** Where the service account's signed JWT is exchanged for an access token. */
  tokenUrl: string;
  /** `https://fcm.googleapis.com`; messages go to `{baseUrl}/v1/projects/{projectId}/messages:send`. */
  baseUrl: string;
}

/** Apple Push Notification service with a token-based (.p8) key, over HTTP/2. */
export interface ApnsSettings {
  keyId: string;
  teamId: string;
  /** PEM (PKCS #8) ES256 key downloaded from Apple. */
  privateKey: string;
  /** The app's bundle id (`apns-topic`). */
  topic: string;
  /** `https://api.push.apple.com` (or the sandbox); `http://` speaks HTTP/2 without TLS (h2c). */
  baseUrl: string;
}

export interface PushSettings {
  /** Unset: no Web Push (WEB devices get nothing, the public key is not offered). */
  web?: WebPushKeys;
  fcm?: FcmSettings;
  apns?: ApnsSettings;
  /** How long a push service keeps a message for a device that is offline. */
  ttlSeconds: number;
}

/** Platforms of push tokens that have a configured sender. */
export function configuredPlatforms(push: PushSettings): string[] {
  return [...(push.web ? ['WEB'] : []), ...(push.fcm ? ['ANDROID'] : []), ...(push.apns ? ['IOS'] : [])];
}

/** A value that is either the text itself or the path of a file holding it. */
function inlineOrFile(value: string, name: string, looksInline: (v: string) => boolean): string {
  if (looksInline(value)) return value;
  try {
    return fs.readFileSync(value, 'utf8');
  } catch (err) {
    throw new Error(`${name}: neither the value itself nor a readable file (${(err as Error).message})`);
  }
}

function fcmFrom(env: NodeJS.ProcessEnv): FcmSettings | undefined {
  if (!env.FCM_SERVICE_ACCOUNT) return undefined;
  const text = inlineOrFile(env.FCM_SERVICE_ACCOUNT, 'FCM_SERVICE_ACCOUNT', (v) => v.trim().startsWith('{'));
  let account: Record<string, unknown>;
  try {
    account = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error('FCM_SERVICE_ACCOUNT: not the JSON of a service account key');
  }
  const field = (key: string) => {
    const value = account[key];
    if (typeof value !== 'string' || !value)
      throw new Error(`FCM_SERVICE_ACCOUNT: the service account key has no "${key}"`);
    return value;
  };
  return {
    projectId: env.FCM_PROJECT_ID || field('project_id'),
    clientEmail: field('client_email'),
    privateKey: field('private_key'),
    tokenUrl:
      env.FCM_TOKEN_URL ||
      (typeof account.token_uri === 'string' && account.token_uri) ||
      'https://oauth2.googleapis.com/token',
    baseUrl: (env.FCM_BASE_URL || 'https://fcm.googleapis.com').replace(/\/+$/, ''),
  };
}

function apnsFrom(env: NodeJS.ProcessEnv): ApnsSettings | undefined {
  if (!env.APNS_KEY) return undefined;
  const missing = ['APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'].filter((k) => !env[k]);
  if (missing.length) throw new Error(`APNS_KEY is set: ${missing.join(', ')} must be set too`);
  return {
    keyId: env.APNS_KEY_ID!,
    teamId: env.APNS_TEAM_ID!,
    privateKey: inlineOrFile(env.APNS_KEY, 'APNS_KEY', (v) => v.includes('-----BEGIN')),
    topic: env.APNS_TOPIC!,
    baseUrl: (env.APNS_BASE_URL || 'https://api.push.apple.com').replace(/\/+$/, ''),
  };
}

function webFrom(env: NodeJS.ProcessEnv): WebPushKeys | undefined {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
  const keys = { publicKey, privateKey, subject: vapidSubject(env) };
  // web-push checks the lengths and the subject; a bad key is a start-up error, not a failed push.
  webpush.getVapidHeaders('https://push.example', keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm');
  return keys;
}

const vapidSubject = (env: NodeJS.ProcessEnv) =>
  env.VAPID_SUBJECT || `mailto:${env.MAIL_FROM || 'notifications@localhost'}`;

export function pushSettings(env: NodeJS.ProcessEnv = process.env): PushSettings {
  return {
    web: webFrom(env),
    fcm: fcmFrom(env),
    apns: apnsFrom(env),
    ttlSeconds: intFrom(env.PUSH_TTL_SECONDS, 86_400, 'PUSH_TTL_SECONDS'),
  };
}

/**
 * The VAPID keys of an embedded (single-process) installation without VAPID_* settings: made
 * once and kept under DATA_DIR, as the JWT secret is, so browsers' subscriptions (bound to the
 * public key) keep working across restarts. With a database server several processes serve, and
 * each would make its own pair: there the keys come from the settings, or Web Push is off.
 */
export function embeddedVapidKeys(dataDir: string, env: NodeJS.ProcessEnv = process.env): WebPushKeys {
  const file = path.join(dataDir, 'vapid-keys.json');
  const read = (): WebPushKeys | undefined => {
    try {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: string; privateKey?: string };
      if (saved.publicKey && saved.privateKey)
        return { publicKey: saved.publicKey, privateKey: saved.privateKey, subject: vapidSubject(env) };
    } catch {
      // first start: made below
    }
    return undefined;
  };
  const existing = read();
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  const made = webpush.generateVAPIDKeys();
  try {
    fs.writeFileSync(file, JSON.stringify(made), { mode: 0o600, flag: 'wx' });
  } catch {
    // another process wrote it first: theirs is read below
  }
  return read() ?? { ...made, subject: vapidSubject(env) };
}
