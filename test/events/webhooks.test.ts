import { spawn } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { workerDatabaseUrl } from '../support/database';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { startReceiver, waitFor } from './receiver';

// The receivers are local HTTP servers on 127.0.0.1, which only this setting lets through.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const settings: EventSettings = {
  ...eventSettings({}),
  allowPrivateTargets: true,
  timeoutMs: 2000,
  retryBaseMs: 100,
  retryMaxMs: 300,
  leaseMs: 1000,
  pollIntervalMs: 50,
};

describe('webhooks', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let worker: EventWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Hooks A');
    b = await server.tenant('Hooks B');
    receiver = await startReceiver((req, nth) => {
      if (req.path === '/flaky') return nth <= 2 ? 500 : 200;
      if (req.path === '/hang') return nth === 1 ? 'hang' : 200;
      return 200;
    });
    worker = startEventWorker(server.orm, createLogger('silent'), settings);
  }, 120_000);
  afterAll(async () => {
    await worker.stop();
    await receiver.close();
    await server.close();
  });

  const register = async (tenant: TestTenant, pathName: string, events: string[]) => {
    const res = await tenant.client.post('/webhooks', { url: receiver.url + pathName, events });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const createFeature = async (tenant: TestTenant, name: string) =>
    (await tenant.client.post('/hr/features', { name })).body.id as string;

  it('registers, lists, reads, changes and deletes an endpoint; the secret is shown once', async () => {
    const created = await a.client.post('/webhooks', {
      url: `${receiver.url}/crud`,
      events: ['feature.created', 'lead.status_changed'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/webhooks/${created.body.id}`);
    expect(created.body).toEqual(
      expect.objectContaining({
        active: true,
        description: 'CRM sync',
        events: ['feature.created', 'lead.status_changed'],
      }),
    );
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const id = created.body.id as string;

    const one = await a.client.get(`/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect((await a.client.get('/webhooks')).body.map((w: { id: string }) => w.id)).toContain(id);
    expect((await b.client.get(`/webhooks/${id}`)).status).toBe(404);

    const changed = await a.client.patch(`/webhooks/${id}`, { active: false, events: ['*'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual(expect.objectContaining({ active: false, events: ['*'] }));
    expectErrorBody(await a.client.patch(`/webhooks/${id}`, { events: ['no_such.thing'] }), 400);
    expectErrorBody(await a.client.post('/webhooks', { url: 'not a url' }), 400);

    expect((await a.client.delete(`/webhooks/${id}`)).status).toBe(204);
    expect((await a.client.get(`/webhooks/${id}`)).status).toBe(404);
  });

  it('needs the webhook permission of its own', async () => {
    const clerk = await a.userWith(['READ_FEATURES']);
    expectErrorBody(await clerk.client.get('/webhooks'), 403);
    expectErrorBody(await clerk.client.post('/webhooks', { url: `${receiver.url}/x` }), 403);
    const reader = await a.userWith(['READ_WEBHOOKS']);
    expect((await reader.client.get('/webhooks')).status).toBe(200);
  });

  it('delivers a signed event that standardwebhooks verifies', async () => {
    const hook = await register(a, '/signed', ['feature.created']);
    const id = await createFeature(a, 'Signed feature');
    const [got] = await waitFor(() => receiver.at('/signed').length > 0 && receiver.at('/signed'));
    const envelope = new Webhook(hook.secret).verify(got.body, got.headers) as any;
    expect(envelope).toEqual(
      expect.objectContaining({
        type: 'feature.created',
        tenantId: a.tenantId,
        resource: { type: 'feature', id },
        actor: { userId: a.adminId, email: a.adminEmail },
      }),
    );
    expect(envelope.data).toEqual(expect.objectContaining({ id, name: 'Signed feature' }));
    expect(got.headers['webhook-id']).toBe(envelope.id);
    expect(() =>
      new Webhook(`whsec_${Buffer.from('wrong secret').toString('base64')}`).verify(got.body, got.headers),
    ).toThrow();

    const log = await waitFor(async () => {
      const res = await a.client.get(`/webhooks/${hook.id}/deliveries`);
      return res.body.content[0]?.status === 'DELIVERED' && res.body;
    });
    expect(log.content[0]).toEqual(
      expect.objectContaining({
        eventId: envelope.id,
        eventType: 'feature.created',
        attempts: 1,
        lastStatusCode: 200,
      }),
    );
  });

  it("dispatches its own process's writes at once, not at its next poll", async () => {
    // The suite's worker looks every 50 ms; this one would look again only after a minute.
    await worker.stop();
    const patient = startEventWorker(server.orm, createLogger('silent'), {
      ...settings,
      pollIntervalMs: 60_000,
    });
    try {
      await patient.runOnce();
      await register(a, '/prompt', ['feature.created']);
      const id = await createFeature(a, 'Prompt');
      const [got] = await waitFor(() => receiver.at('/prompt').length > 0 && receiver.at('/prompt'), 10_000);
      expect(JSON.parse(got.body).resource.id).toBe(id);
    } finally {
      await patient.stop();
      worker = startEventWorker(server.orm, createLogger('silent'), settings);
    }
  });

  it('retries a failing receiver: two failures, then one success, three attempts in the log', async () => {
    const hook = await register(a, '/flaky', ['feature.created']);
    await createFeature(a, 'Flaky feature');
    const log = await waitFor(async () => {
      const res = await a.client.get(`/webhooks/${hook.id}/deliveries`);
      return res.body.content[0]?.status === 'DELIVERED' && res.body;
    });
    expect(log.totalElements).toBe(1);
    const [delivery] = log.content;
    expect(delivery.attempts).toBe(3);
    expect(delivery.attemptLog.map((x: { statusCode: number }) => x.statusCode)).toEqual([500, 500, 200]);
    expect(delivery.lastError).toBeNull();
    const hits = receiver.at('/flaky');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
  });

  it("never sends one tenant's events to another tenant's endpoint", async () => {
    await register(b, '/tenant-b', ['*']);
    const ofA = await createFeature(a, 'Only for A');
    const ofB = await createFeature(b, 'For B');
    await waitFor(() => receiver.at('/tenant-b').some((r) => r.body.includes(ofB)));
    await worker.runOnce();
    const bodies = receiver.at('/tenant-b').map((r) => JSON.parse(r.body));
    expect(bodies.every((e) => e.tenantId === b.tenantId)).toBe(true);
    expect(bodies.some((e) => e.resource.id === ofA)).toBe(false);
  });

  it('tests an endpoint, redelivers, and signs with both secrets during a rotation', async () => {
    const hook = await register(a, '/rotate', ['lead.created']);
    const tested = await a.client.post(`/webhooks/${hook.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual(expect.objectContaining({ eventType: 'webhook.test', status: 'PENDING' }));
    await waitFor(() => receiver.at('/rotate').length === 1);

    const rotated = await a.client.post(`/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const again = await a.client.post(`/webhooks/${hook.id}/deliveries/${tested.body.id}/redeliver`);
    expect(again.status).toBe(200);
    const [, second] = await waitFor(() => receiver.at('/rotate').length === 2 && receiver.at('/rotate'));
    expect(second.headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rotated.body.secret])
      expect((new Webhook(secret).verify(second.body, second.headers) as any).type).toBe('webhook.test');
    expect(second.headers['webhook-id']).toBe(receiver.at('/rotate')[0].headers['webhook-id']);
  });

  it('takes over within the lease what a process killed mid-request held, and holds nothing else behind it', async () => {
    await worker.stop();
    const hook = await register(a, '/hang', ['feature.created']);
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, '../support/register-ts.js'),
        path.join(__dirname, 'worker-process.ts'),
        await workerDatabaseUrl(),
      ],
      {
        env: {
          ...process.env,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          // The request would wait this long; the lease (renewed while it waits) is much shorter.
          WEBHOOK_TIMEOUT_MS: '60000',
          EVENT_LEASE_MS: '1000',
          EVENT_POLL_INTERVAL_MS: '50',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let killedAt: number;
    try {
      await waitFor(
        () => new Promise<boolean>((resolve) => child.stdout!.once('data', () => resolve(true))),
        60_000,
        'the second process',
      );
      await createFeature(a, 'Survives a crash');
      await waitFor(() => receiver.at('/hang').length === 1, 20_000, 'the first attempt');
      // The endpoint's next event goes out while the first still hangs: it is not held behind it.
      const next = await createFeature(a, 'Not held behind it');
      await waitFor(() => receiver.at('/hang').some((r) => r.body.includes(next)), 20_000, 'the next event');
      // Past several lease lengths the hanging attempt is still the killed process's (renewed).
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.at('/hang')).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
      killedAt = Date.now();
      await exited;
    }
    worker = startEventWorker(server.orm, createLogger('silent'), settings);
    const log = await waitFor(async () => {
      const res = await a.client.get(`/webhooks/${hook.id}/deliveries`);
      return res.body.content.every((d: { status: string }) => d.status === 'DELIVERED') && res.body;
    }, 20_000);
    expect(log.content.map((d: { attempts: number }) => d.attempts).sort()).toEqual([1, 2]);
    const hits = receiver.at('/hang');
    expect(hits).toHaveLength(3);
    expect(hits[2].headers['webhook-id']).toBe(hits[0].headers['webhook-id']);
    // Taken over once the lease (1 s) ran out, not after a request timeout and a margin.
    expect(hits[2].at - killedAt).toBeLessThan(4000);
  }, 120_000);
});
