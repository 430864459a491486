import { createClient } from 'graphql-ws';
import webpush from 'web-push';
import WebSocket from 'ws';
import { createLogger } from '../../src/logger';
import { eventSettings, useEventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { waitFor } from '../events/receiver';
import { startSmtp } from '../support/smtp';
import { startWebPushService } from './push-receivers';

/**
 * Every notification setting against every channel, as docs/events.md's table states it: for
 * each setting a user of its own (with a browser registered and a live subscription open, data
 * built through the API), one notification, then what reached the feed, the subscription, the
 * push service and the SMTP server.
 */
describe('notification settings, on every channel', () => {
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@service.test' };
  let server: TestServer;
  let a: TestTenant;
  let service: Awaited<ReturnType<typeof startWebPushService>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker;
  let settings: EventSettings;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Channels');
    service = await startWebPushService(keys.publicKey);
    smtp = await startSmtp();
    settings = {
      ...eventSettings({}),
      allowPrivateTargets: true,
      smtpUrl: smtp.url,
      mailFrom: 'notifications@service.test',
      pollIntervalMs: 50,
      push: { web: keys, ttlSeconds: 60 },
    };
    useEventSettings(settings);
    // Driven by runOnce only: after it, everything the notification causes has been sent.
    worker = startEventWorker(server.orm, createLogger('silent'), { ...settings, pollIntervalMs: 3_600_000 });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await service?.close();
    await smtp?.close();
    await server?.close();
  });

  /** The user's `notificationAdded` subscription over WebSocket: the ids that arrived. */
  async function listen(token: string) {
    const client = createClient({
      url: `${server.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${token}` },
      onNonLazyError: () => undefined,
    });
    const arrived: string[] = [];
    const before = server.app.live.subscriptionCount;
    client.subscribe<{ notificationAdded: { id: string } }>(
      { query: 'subscription { notificationAdded { id } }' },
      {
        next: (result) => {
          if (result.data) arrived.push(result.data.notificationAdded.id);
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await waitFor(() => server.app.live.subscriptionCount > before, 10_000, 'the subscription');
    return { arrived, close: () => client.dispose() };
  }

  /** What one notification reached, for a user with `put` as settings (none: the defaults). */
  async function reach(name: string, put: Record<string, unknown> | null) {
    const u = await a.userWith([]);
    const device = service.device(name);
    expect(
      (await u.client.post('/notifications/push-tokens', { platform: 'WEB', token: device })).status,
    ).toBe(201);
    if (put) expect((await u.client.put('/notifications/settings/me', put)).status).toBe(200);
    const live = await listen(u.token);
    const created = await a.client.post('/notifications', {
      title: `For ${name}`,
      username: u.email,
      category: 'ERP',
      scope: 'invoice.overdue',
    });
    expect(created.status).toBe(201);
    await worker.runOnce();
    await worker.runOnce();
    const feed = (await u.client.get('/notifications/me')).body.content as { id: string }[];
    const unread = (await u.client.get('/notifications/unread-count')).body.count as number;
    // A live event comes within moments of the commit, or (turned away) never.
    const arrivedLive = await waitFor(() => live.arrived.includes(created.body.id), 1500).then(
      () => true,
      () => false,
    );
    await live.close();
    return {
      inApp: feed.some((n) => n.id === created.body.id) && unread === 1,
      live: arrivedLive,
      push: service.received.filter((r) => r.device === name).length,
      email: smtp.to(u.email).length,
    };
  }

  it('the defaults: in-app and push, no e-mail', async () => {
    expect(await reach('defaults', null)).toEqual({ inApp: true, live: true, push: 1, email: 0 });
  });

  it('e-mail on: every channel', async () => {
    expect(await reach('all-on', { emailNotificationsEnabled: true })).toEqual({
      inApp: true,
      live: true,
      push: 1,
      email: 1,
    });
  });

  it('the category turned off: no channel at all', async () => {
    expect(
      await reach('category-off', {
        emailNotificationsEnabled: true,
        enabledCategories: ['CRM', 'HR', 'SYSTEM'],
      }),
    ).toEqual({ inApp: false, live: false, push: 0, email: 0 });
  });

  it('the scope switched off: no channel at all', async () => {
    expect(
      await reach('scope-off', { emailNotificationsEnabled: true, disabledScopes: ['invoice.overdue'] }),
    ).toEqual({ inApp: false, live: false, push: 0, email: 0 });
  });

  it('another scope switched off changes nothing', async () => {
    expect(
      await reach('other-scope-off', { emailNotificationsEnabled: true, disabledScopes: ['lead.status'] }),
    ).toEqual({ inApp: true, live: true, push: 1, email: 1 });
  });

  it('in-app off: only the feed and live subscriptions stop', async () => {
    expect(
      await reach('in-app-off', { emailNotificationsEnabled: true, inAppNotificationsEnabled: false }),
    ).toEqual({ inApp: false, live: false, push: 1, email: 1 });
  });

  it('push off: only push stops', async () => {
    expect(
      await reach('push-off', { emailNotificationsEnabled: true, pushNotificationsEnabled: false }),
    ).toEqual({ inApp: true, live: true, push: 0, email: 1 });
  });

  it('push turned off after registering stops pushes to every device of the user', async () => {
    const u = await a.userWith([]);
    for (const name of ['many-1', 'many-2'])
      await u.client.post('/notifications/push-tokens', { platform: 'WEB', token: service.device(name) });
    const send = async () => {
      await a.client.post('/notifications', { title: 'x', username: u.email });
      await worker.runOnce();
      await worker.runOnce();
    };
    await send();
    await u.client.put('/notifications/settings/me', { pushNotificationsEnabled: false });
    await send();
    expect(
      service.received
        .filter((r) => r.device.startsWith('many-'))
        .map((r) => r.device)
        .sort(),
    ).toEqual(['many-1', 'many-2']);
  });
});
