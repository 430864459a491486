import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import webpush from 'web-push';
import { configuredPlatforms, embeddedVapidKeys, pushSettings } from '../../src/events/push/settings';

/** The push senders' settings as an operator gives them, and the embedded default's VAPID keys. */
describe('push settings', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-push-'));
    dirs.push(dir);
    return dir;
  };

  it('the embedded default makes its VAPID keys once, under DATA_DIR, readable by its owner only', () => {
    const dir = tempDir();
    const first = embeddedVapidKeys(dir, { MAIL_FROM: 'ops@service.test' });
    const again = embeddedVapidKeys(dir, {});
    expect(again.publicKey).toBe(first.publicKey);
    expect(again.privateKey).toBe(first.privateKey);
    expect(first.subject).toBe('mailto:ops@service.test');
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(fs.statSync(path.join(dir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
    expect(embeddedVapidKeys(tempDir(), {}).publicKey).not.toBe(first.publicKey);
  });

  it('reads every sender from the environment; none configured means no platform', () => {
    expect(configuredPlatforms(pushSettings({}))).toEqual([]);
    const vapid = webpush.generateVAPIDKeys();
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const dir = tempDir();
    const keyFile = path.join(dir, 'AuthKey.p8');
    fs.writeFileSync(keyFile, key);
    const accountFile = path.join(dir, 'account.json');
    fs.writeFileSync(
      accountFile,
      JSON.stringify({
        project_id: 'p1',
        client_email: 'a@p1.iam.test',
        private_key: 'PEM',
        token_uri: 'https://t.test/token',
      }),
    );
    const settings = pushSettings({
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'https://service.test/contact',
      FCM_SERVICE_ACCOUNT: accountFile,
      APNS_KEY: keyFile,
      APNS_KEY_ID: 'K1',
      APNS_TEAM_ID: 'T1',
      APNS_TOPIC: 'com.example.app',
      PUSH_TTL_SECONDS: '600',
    });
    expect(configuredPlatforms(settings)).toEqual(['WEB', 'ANDROID', 'IOS']);
    expect(settings.web).toEqual({ ...vapid, subject: 'https://service.test/contact' });
    expect(settings.fcm).toEqual({
      projectId: 'p1',
      clientEmail: 'a@p1.iam.test',
      privateKey: 'PEM',
      tokenUrl: 'https://t.test/token',
      baseUrl: 'https://fcm.googleapis.com',
    });
    expect(settings.apns).toMatchObject({
      keyId: 'K1',
      teamId: 'T1',
      topic: 'com.example.app',
      baseUrl: 'https://api.push.apple.com',
    });
    expect(settings.apns!.privateKey).toBe(key);
    expect(settings.ttlSeconds).toBe(600);
  });

  it('refuses settings that cannot work, at start rather than at the first push', () => {
    const vapid = webpush.generateVAPIDKeys();
    expect(() => pushSettings({ VAPID_PUBLIC_KEY: vapid.publicKey })).toThrow(/go together/);
    expect(() => pushSettings({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: vapid.privateKey })).toThrow(
      /public key/i,
    );
    expect(() =>
      pushSettings({
        ...{ VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey },
        VAPID_SUBJECT: 'ftp://x',
      }),
    ).toThrow(/subject/i);
    expect(() => pushSettings({ FCM_SERVICE_ACCOUNT: '{not json' })).toThrow(/not the JSON/);
    expect(() => pushSettings({ FCM_SERVICE_ACCOUNT: '{"project_id":"p"}' })).toThrow(/client_email/);
    expect(() => pushSettings({ FCM_SERVICE_ACCOUNT: path.join(tempDir(), 'missing.json') })).toThrow(
      /readable file/,
    );
    expect(() => pushSettings({ APNS_KEY: '-----BEGIN PRIVATE KEY-----' })).toThrow(
      /APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC/,
    );
  });
});
