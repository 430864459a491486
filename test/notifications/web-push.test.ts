import webpush from 'web-push';
import { createLogger } from '../../src/logger';
import { eventSettings, useEventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { waitFor } from '../events/receiver';
import { startWebPushService } from './push-receivers';

/**
 * Web Push end to end: browsers' subscriptions registered through the API, notifications created
 * through the API, and a push service on 127.0.0.1 that checks the VAPID JWT and decrypts each
 * payload (http_ece) with the subscription's own keys, as a browser's push service would.
 */
describe('Web Push', () => {
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@service.test' };
  let server: TestServer;
  let a: TestTenant;
  let service: Awaited<ReturnType<typeof startWebPushService>>;
  let worker: EventWorker;
  // Device `flaky` fails its first push with a 500, `slow` answers its first after the timeout,
  // `garbage` answers its first with bytes that are no HTTP; `gone` answers 410 (unsubscribed).
  const answer = (device: string, nth: number) =>
    device.startsWith('flaky') && nth === 1
      ? 500
      : device.startsWith('slow') && nth === 1
        ? { status: 201, afterMs: 3000 }
        : device.startsWith('garbage') && nth === 1
          ? ('garbage' as const)
          : device.startsWith('gone')
            ? 410
            : 201;
  const settings = (): EventSettings => ({
    ...eventSettings({}),
    allowPrivateTargets: true,
    retryBaseMs: 200,
    retryMaxMs: 400,
    pollIntervalMs: 50,
    timeoutMs: 1500,
    push: { web: keys, ttlSeconds: 120 },
  });

  beforeAll(async () => {
    useEventSettings(settings());
    server = await startServer();
    a = await server.tenant('WebPush');
    service = await startWebPushService(keys.publicKey, answer);
    worker = startEventWorker(
      server.orm,
      createLogger('silent'),
      settings(),
      server.app.metrics.observeAttempt,
    );
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await service?.close();
    await server?.close();
  });

  const notify = async (tenant: TestTenant, email: string, fields: Record<string, unknown> = {}) => {
    const res = await tenant.client.post('/notifications', {
      title: 'Invoice 42 is overdue',
      body: 'Acme Oy owes 1 200 €',
      username: email,
      category: 'ERP',
      ...fields,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; title: string; body: string };
  };
  const register = async (user: { client: TestTenant['client'] }, device: string) => {
    const res = await user.client.post('/notifications/push-tokens', { platform: 'WEB', token: device });
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string; lastUsed: string };
  };
  const pushesFor = (device: string) => service.received.filter((r) => r.device === device);
  const pushRows = async (notificationId: string) =>
    (await server.orm.em.getConnection().execute(
      `select d.status, d.attempts, d.target->>'platform' as platform from event_delivery d
       join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
       where d.channel = 'PUSH' and o.resource_id = ? order by d.created`,
      [notificationId],
      'all',
    )) as { status: string; attempts: number; platform: string }[];

  it('offers the VAPID public key to signed-in clients', async () => {
    const res = await a.client.get('/notifications/web-push-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: keys.publicKey });
    const gql = await a.client.graphql('{ webPushKey { publicKey } }');
    expect(gql.body.data!.webPushKey).toEqual({ publicKey: keys.publicKey });
    useEventSettings({ ...settings(), push: { ttlSeconds: 60 } });
    try {
      expectErrorBody(await a.client.get('/notifications/web-push-key'), 404);
    } finally {
      useEventSettings(settings());
    }
  });

  it('refuses a WEB token that is no PushSubscription, naming what is wrong (400)', async () => {
    const u = await a.userWith([]);
    const good = JSON.parse(service.device('checked')) as { endpoint: string; keys: Record<string, string> };
    const cases: [unknown, RegExp][] = [
      ['not json', /not JSON/],
      [JSON.stringify([1]), /not a JSON object/],
      [JSON.stringify({ keys: good.keys }), /endpoint is missing/],
      [JSON.stringify({ ...good, endpoint: 'ftp://example.com/x' }), /endpoint: must use https/],
      [JSON.stringify({ endpoint: good.endpoint }), /keys is missing/],
      [JSON.stringify({ ...good, keys: { auth: good.keys.auth } }), /keys.p256dh/],
      [
        JSON.stringify({
          ...good,
          keys: { ...good.keys, p256dh: Buffer.alloc(65, 4).toString('base64url') },
        }),
        /not a point of P-256/,
      ],
      [JSON.stringify({ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }), /65 bytes/],
      [JSON.stringify({ ...good, keys: { ...good.keys, auth: 'AAAA' } }), /keys.auth must be 16 bytes/],
      [JSON.stringify({ ...good, expirationTime: 'soon' }), /expirationTime/],
    ];
    for (const [token, why] of cases) {
      const res = await u.client.post('/notifications/push-tokens', { platform: 'WEB', token });
      expectErrorBody(res, 400);
      expect(res.body.detail).toMatch(why);
    }
    expectErrorBody(
      await u.client.post('/notifications/push-tokens', { platform: 'PAGER', token: 'x' }),
      400,
    );
    // The same subscription, its fields in another order, is the same device.
    const first = await register(u, JSON.stringify(good));
    const reordered = JSON.stringify({
      keys: { auth: good.keys.auth, p256dh: good.keys.p256dh },
      endpoint: good.endpoint,
    });
    expect((await register(u, reordered)).id).toBe(first.id);
    expect((await u.client.delete('/notifications/push-tokens', { token: reordered })).status).toBe(204);
  });

  it('pushes a created notification to each of the recipient’s browsers, encrypted for each, signed with VAPID', async () => {
    const u = await a.userWith([]);
    const laptop = service.device('laptop');
    const phone = service.device('phone');
    const t1 = await register(u, laptop);
    await register(u, phone);
    const n = await notify(a, u.email, {
      actionUrl: 'https://app.example.test/invoices/42',
      scope: 'invoice.overdue',
    });
    await waitFor(
      () => pushesFor('laptop').length === 1 && pushesFor('phone').length === 1,
      15_000,
      'two pushes',
    );
    for (const push of [...pushesFor('laptop'), ...pushesFor('phone')]) {
      expect(push.payload).toEqual({
        notificationId: n.id,
        title: 'Invoice 42 is overdue',
        body: 'Acme Oy owes 1 200 €',
        actionUrl: 'https://app.example.test/invoices/42',
        category: 'ERP',
        type: 'INFO',
        scope: 'invoice.overdue',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(push.claims.sub).toBe('mailto:ops@service.test');
      expect(push.headers.ttl).toBe('120');
    }
    expect(service.refused).toEqual([]);
    await waitFor(async () => (await pushRows(n.id)).every((r) => r.status === 'DELIVERED'));
    expect(await pushRows(n.id)).toEqual([
      { status: 'DELIVERED', attempts: 1, platform: 'WEB' },
      { status: 'DELIVERED', attempts: 1, platform: 'WEB' },
    ]);
    // Nothing more goes out once delivered: one push per notification and device.
    await worker.runOnce();
    expect(pushesFor('laptop')).toHaveLength(1);
    const token = await u.client.get(`/notifications/push-tokens/${t1.id}`);
    // lastUsed: when a push was last sent to the device, no longer when it was registered.
    expect(new Date(token.body.lastUsed).getTime()).toBeGreaterThan(new Date(t1.lastUsed).getTime());
    const metrics = await server.app.metrics.registry.metrics();
    expect(metrics).toMatch(/event_deliveries_total\{channel="push",endpoint="webpush",outcome="ok"\} \d+/);
  });

  it('retries a failed push with backoff, while the recipient’s other device gets its push at once', async () => {
    const u = await a.userWith([]);
    await register(u, service.device('flaky-1'));
    await register(u, service.device('steady-1'));
    const n = await notify(a, u.email);
    await waitFor(() => pushesFor('steady-1').length === 1, 15_000, 'the healthy device');
    await waitFor(() => pushesFor('flaky-1').length === 1, 15_000, 'the retried device');
    expect(service.attempts('flaky-1')).toBe(2);
    const rows = await waitFor(async () => {
      const found = await pushRows(n.id);
      return found.every((r) => r.status === 'DELIVERED') && found;
    });
    expect(rows.map((r) => r.attempts).sort()).toEqual([1, 2]);
    const metrics = await server.app.metrics.registry.metrics();
    expect(metrics).toMatch(
      /event_deliveries_total\{channel="push",endpoint="webpush",outcome="failed"\} [1-9]/,
    );
  });

  it('a push service that answers too late or with garbage is a failed attempt, retried; the other device is not held', async () => {
    const u = await a.userWith([]);
    await register(u, service.device('slow-1'));
    await register(u, service.device('garbage-1'));
    await register(u, service.device('prompt-1'));
    const n = await notify(a, u.email);
    await waitFor(
      () => pushesFor('prompt-1').length === 1,
      1000,
      'the prompt device, while the slow one hangs',
    );
    await waitFor(
      () => pushesFor('slow-1').length === 1 && pushesFor('garbage-1').length === 1,
      15_000,
      'the retried devices',
    );
    // The push arrived; its record follows.
    const rows = await waitFor(async () => {
      const found = (await server.orm.em.getConnection().execute(
        `select d.status, d.attempts, d.attempt_log from event_delivery d
         join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
         where d.channel = 'PUSH' and o.resource_id = ?`,
        [n.id],
        'all',
      )) as { status: string; attempts: number; attempt_log: { error: string | null }[] }[];
      return found.every((r) => r.status === 'DELIVERED') && found;
    });
    const logs = rows.map((r) => `${r.status} ${r.attempts} ${r.attempt_log[0].error ?? 'ok'}`).sort();
    expect(logs).toEqual([
      expect.stringMatching(/^DELIVERED 1 ok$/),
      expect.stringMatching(/^DELIVERED 2 .*(parse|Parse|HPE|Expected HTTP)/),
      expect.stringMatching(/^DELIVERED 2 timed out after 1500 ms$/),
    ]);
  });

  it('a 410 from the push service removes that device and is not retried; the other device still gets it', async () => {
    const u = await a.userWith([]);
    const dead = await register(u, service.device('gone-1'));
    await register(u, service.device('alive-1'));
    const n = await notify(a, u.email);
    await waitFor(() => pushesFor('alive-1').length === 1);
    await waitFor(async () => (await u.client.get(`/notifications/push-tokens/${dead.id}`)).status === 404);
    const rows = await waitFor(async () => {
      const found = await pushRows(n.id);
      return found.every((r) => r.status !== 'PENDING') && found;
    });
    expect(rows.map((r) => `${r.status}/${r.attempts}`).sort()).toEqual(['DELIVERED/1', 'FAILED/1']);
    expect(service.attempts('gone-1')).toBe(1);
    const mine = await u.client.graphql('{ myPushTokens { id } }');
    expect(mine.body.data!.myPushTokens).toHaveLength(1);
  });

  it('never pushes one tenant’s notification to another tenant, and carries nothing but the notification', async () => {
    const b = await server.tenant('WebPushB');
    const ua = await a.userWith([]);
    const ub = await b.userWith([]);
    await register(ua, service.device('tenant-a'));
    await register(ub, service.device('tenant-b'));
    const na = await notify(a, ua.email, { title: 'Secret of A', body: 'only for A' });
    const nb = await notify(b, ub.email, { title: 'Secret of B', body: 'only for B' });
    await waitFor(() => pushesFor('tenant-a').length === 1 && pushesFor('tenant-b').length === 1);
    await worker.runOnce();
    expect(pushesFor('tenant-a').map((p) => p.payload.notificationId)).toEqual([na.id]);
    expect(pushesFor('tenant-b').map((p) => p.payload.notificationId)).toEqual([nb.id]);
    const seenByA = JSON.stringify(pushesFor('tenant-a'));
    expect(seenByA).not.toContain('Secret of B');
    expect(seenByA).not.toContain(b.tenantId);
    expect(seenByA).not.toContain(ub.userId);
    expect(Object.keys(pushesFor('tenant-b')[0].payload).sort()).toEqual(
      ['actionUrl', 'body', 'category', 'createdAt', 'notificationId', 'scope', 'title', 'type'].sort(),
    );
  });

  it('a long body is cut to what a push can carry', async () => {
    const u = await a.userWith([]);
    await register(u, service.device('long'));
    await notify(a, u.email, { body: 'ä'.repeat(9000) });
    const [push] = await waitFor(() => pushesFor('long').length === 1 && pushesFor('long'));
    expect(Buffer.byteLength(JSON.stringify(push.payload))).toBeLessThanOrEqual(3000);
    expect(String(push.payload.body)).toMatch(/^ä+…$/);
  });
});
