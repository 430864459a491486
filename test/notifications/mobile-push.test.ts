import { createLogger } from '../../src/logger';
import { pushSettings } from '../../src/events/push/settings';
import { eventSettings, useEventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { waitFor } from '../events/receiver';
import { startApns, startFcm } from './push-receivers';

/**
 * Mobile push through FCM HTTP v1 and APNs, configured as an operator would (the settings read
 * from the environment), each pointed at a receiver on 127.0.0.1 that checks every request as
 * the service defines it: FCM's OAuth2 token exchange (a JWT signed with the service account's
 * key) and message format, APNs' provider JWT and headers over HTTP/2.
 */
describe('mobile push (FCM and APNs)', () => {
  let server: TestServer;
  let a: TestTenant;
  let fcm: Awaited<ReturnType<typeof startFcm>>;
  let apns: Awaited<ReturnType<typeof startApns>>;
  let worker: EventWorker;
  // `flaky` tokens fail their first attempt (500); `dead` ones are gone (FCM 404, APNs 410).
  const answer = (ok: number, gone: number) => (token: string, nth: number) =>
    token.startsWith('flaky') && nth === 1 ? 500 : token.startsWith('dead') ? gone : ok;

  beforeAll(async () => {
    fcm = await startFcm(answer(200, 404));
    apns = await startApns(answer(200, 410));
    const push = pushSettings({
      FCM_SERVICE_ACCOUNT: JSON.stringify(fcm.account),
      FCM_BASE_URL: fcm.base,
      APNS_KEY: apns.settings.privateKey,
      APNS_KEY_ID: apns.settings.keyId,
      APNS_TEAM_ID: apns.settings.teamId,
      APNS_TOPIC: apns.settings.topic,
      APNS_BASE_URL: apns.settings.baseUrl,
    });
    const settings: EventSettings = {
      ...eventSettings({}),
      retryBaseMs: 200,
      retryMaxMs: 400,
      pollIntervalMs: 50,
      push,
    };
    useEventSettings(settings);
    server = await startServer();
    a = await server.tenant('MobilePush');
    worker = startEventWorker(
      server.orm,
      createLogger('silent'),
      settings,
      server.app.metrics.observeAttempt,
    );
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await fcm?.close();
    await apns?.close();
    await server?.close();
  });

  const register = async (user: { client: TestTenant['client'] }, platform: string, token: string) => {
    const res = await user.client.post('/notifications/push-tokens', { platform, token });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const notify = async (email: string, title = 'Stock is low') => {
    const res = await a.client.post('/notifications', {
      title,
      body: 'Item 7 is below its minimum',
      username: email,
      category: 'ERP',
      scope: 'stock.low',
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('sends to an Android device through FCM HTTP v1, with an OAuth2 token from the service account', async () => {
    const u = await a.userWith([]);
    await register(u, 'ANDROID', 'android-1');
    const first = await notify(u.email, 'First');
    const second = await notify(u.email, 'Second');
    await waitFor(() => fcm.received.filter((r) => r.token === 'android-1').length === 2);
    const [one] = fcm.received.filter((r) => r.message.data.notificationId === first);
    expect(one.message).toMatchObject({
      token: 'android-1',
      notification: { title: 'First', body: 'Item 7 is below its minimum' },
      data: { notificationId: first, category: 'ERP', scope: 'stock.low', type: 'INFO' },
      android: { priority: 'HIGH' },
    });
    expect(fcm.received.some((r) => r.message.data.notificationId === second)).toBe(true);
    // One token exchange serves both messages.
    expect(fcm.exchanges).toHaveLength(1);
    expect(fcm.refused).toEqual([]);
  });

  it('sends to an iPhone through APNs over HTTP/2 with a provider JWT', async () => {
    const u = await a.userWith([]);
    const token = 'a1b2c3d4'.repeat(8);
    await register(u, 'IOS', token);
    const id = await notify(u.email, 'To the phone');
    const [got] = await waitFor(() => {
      const mine = apns.received.filter((r) => r.token === token);
      return mine.length === 1 && mine;
    });
    expect(got.body).toEqual({
      aps: { alert: { title: 'To the phone', body: 'Item 7 is below its minimum' }, sound: 'default' },
      notificationId: id,
      actionUrl: null,
      category: 'ERP',
      type: 'INFO',
      scope: 'stock.low',
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(got.headers['apns-priority']).toBe('10');
    expect(Number(got.headers['apns-expiration'])).toBeGreaterThan(Date.now() / 1000);
    expect(apns.refused).toEqual([]);
  });

  it('retries a failing device while the others get theirs; a gone device loses its token', async () => {
    const u = await a.userWith([]);
    const deadAndroid = await register(u, 'ANDROID', 'dead-android');
    const deadPhone = await register(u, 'IOS', 'dead0000');
    await register(u, 'ANDROID', 'flaky-android');
    await register(u, 'IOS', 'flaky0000');
    await register(u, 'ANDROID', 'fine-android');
    const id = await notify(u.email, 'Mixed fortunes');
    await waitFor(() => fcm.received.some((r) => r.token === 'fine-android'));
    await waitFor(
      () =>
        fcm.received.some((r) => r.token === 'flaky-android') &&
        apns.received.some((r) => r.token === 'flaky0000'),
      15_000,
      'the retried devices',
    );
    expect(fcm.attempts('flaky-android')).toBe(2);
    expect(apns.attempts('flaky0000')).toBe(2);
    for (const dead of [deadAndroid, deadPhone])
      await waitFor(async () => (await u.client.get(`/notifications/push-tokens/${dead.id}`)).status === 404);
    const rows = await waitFor(async () => {
      const found = (await server.orm.em.getConnection().execute(
        `select d.status, d.attempts, d.target->>'platform' as platform from event_delivery d
         join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
         where d.channel = 'PUSH' and o.resource_id = ?`,
        [id],
        'all',
      )) as { status: string; attempts: number; platform: string }[];
      return found.length === 5 && found.every((r) => r.status !== 'PENDING') && found;
    });
    expect(rows.map((r) => `${r.platform} ${r.status} ${r.attempts}`).sort()).toEqual([
      'ANDROID DELIVERED 1',
      'ANDROID DELIVERED 2',
      'ANDROID FAILED 1',
      'IOS DELIVERED 2',
      'IOS FAILED 1',
    ]);
    expect(fcm.attempts('dead-android')).toBe(1);
    expect(apns.attempts('dead0000')).toBe(1);
    const metrics = await server.app.metrics.registry.metrics();
    for (const service of ['fcm', 'apns'])
      for (const outcome of ['ok', 'failed'])
        expect(metrics).toMatch(
          new RegExp(
            `event_deliveries_total\\{channel="push",endpoint="${service}",outcome="${outcome}"\\} [1-9]`,
          ),
        );
  });

  it('without a sender for a platform, its devices get nothing and nothing waits for them', async () => {
    const u = await a.userWith([]);
    await register(
      u,
      'WEB',
      JSON.stringify({
        endpoint: 'https://push.example.test/x',
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      }),
    );
    const id = await notify(u.email);
    await worker.runOnce();
    const rows = (await server.orm.em.getConnection().execute(
      `select 1 from event_delivery d join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
       where d.channel = 'PUSH' and o.resource_id = ?`,
      [id],
      'all',
    )) as unknown[];
    expect(rows).toHaveLength(0);
  });
});
