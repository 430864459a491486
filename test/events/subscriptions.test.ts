import { once } from 'node:events';
import net from 'node:net';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { signToken } from '../../src/auth/jwt';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, errorLines, freePort, startService, type Running } from '../support/process';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * GraphQL subscriptions over WebSocket with a real graphql-ws client: notifications and record
 * changes reach the subscribers who may read them, on this process and on a second service
 * process on the same database (LISTEN/NOTIFY), and a credential that goes bad ends them.
 */

interface Live {
  client: WsClient;
  /** Resolves with the close event's code and reason once the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
}

function connect(baseUrl: string, token: string | undefined, payload?: Record<string, unknown>): Live {
  let closedWith: (c: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: payload ?? (token ? { Authorization: `Bearer ${token}` } : {}),
    on: { closed: (e) => closedWith(e as { code: number; reason: string }) },
    onNonLazyError: () => undefined,
  });
  return { client, closed };
}

interface Stream<T> {
  next(timeoutMs?: number): Promise<T>;
  /** Resolves when the server completes or fails the subscription: the error, if any. */
  ended: Promise<unknown>;
  stop(): void;
}

function subscribe<T>(live: Live, query: string, variables?: Record<string, unknown>): Stream<T> {
  const values: T[] = [];
  const waiting: ((v: T) => void)[] = [];
  let endedWith: (e: unknown) => void = () => undefined;
  const ended = new Promise<unknown>((resolve) => (endedWith = resolve));
  const stop = live.client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) return endedWith(result.errors);
        const value = result.data as T;
        const w = waiting.shift();
        if (w) w(value);
        else values.push(value);
      },
      error: (err) => endedWith(err),
      complete: () => endedWith(undefined),
    },
  );
  return {
    ended,
    stop,
    next(timeoutMs = 15_000) {
      if (values.length > 0) return Promise.resolve(values.shift()!);
      return new Promise<T>((resolve, reject) => {
        const waiter = (v: T) => {
          clearTimeout(timer);
          resolve(v);
        };
        const timer = setTimeout(() => {
          // A value arriving later stays for the next call.
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error('no event arrived'));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
  };
}

const NOTIFICATIONS = 'subscription { notificationAdded { id title userId read isRead } }';
const RECORDS = `subscription ($types: [String!]) {
  recordChanged(types: $types) { id type tenantId occurredAt actor { userId email } resource { type id } data }
}`;

describe('GraphQL subscriptions', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  const sockets: Live[] = [];

  const open = (token: string | undefined, payload?: Record<string, unknown>) => {
    const live = connect(server.baseUrl, token, payload);
    sockets.push(live);
    return live;
  };
  /** Waits until the server holds `n` more live subscriptions than `before`. */
  const subscribed = async (before: number, n = 1, on = server) => {
    for (let i = 0; i < 500 && on.app.live.subscriptionCount < before + n; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(on.app.live.subscriptionCount).toBeGreaterThanOrEqual(before + n);
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Live A');
    b = await server.tenant('Live B');
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) await s.client.dispose();
    await server.close();
  });

  const notify = async (tenant: TestTenant, email: string, title: string) => {
    const res = await tenant.client.post('/notifications', { title, username: email, category: 'ERP' });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };

  it('delivers a notification created through REST to its recipient only', async () => {
    const alice = await a.userWith([]);
    const bob = await a.userWith([]);
    const live = open(alice.token);
    const before = server.app.live.subscriptionCount;
    const stream = subscribe<{ notificationAdded: { id: string; title: string; userId: string } }>(
      live,
      NOTIFICATIONS,
    );
    await subscribed(before);
    await notify(a, bob.email, 'for bob');
    const created = await notify(a, alice.email, 'for alice');
    const { notificationAdded } = await stream.next();
    expect(notificationAdded).toMatchObject({ id: created.id, title: 'for alice', userId: alice.userId });
  });

  it('delivers record changes only for the types the caller may read', async () => {
    const reader = await a.userWith(['READ_FEATURES']);
    const live = open(reader.token);
    const before = server.app.live.subscriptionCount;
    const all = subscribe<{ recordChanged: any }>(live, RECORDS);
    const onlyUpdates = subscribe<{ recordChanged: any }>(live, RECORDS, { types: ['feature.updated'] });
    await subscribed(before, 2);

    const concept = await a.client.post('/concepts', { name: 'Hidden', buildingType: 'ROW' });
    expect(concept.status).toBe(201);
    const feature = await a.client.post('/hr/features', { name: 'Seen', status: 'READY' });
    expect(feature.status).toBe(201);
    const first = (await all.next()).recordChanged;
    expect(first).toMatchObject({
      type: 'feature.created',
      tenantId: a.tenantId,
      resource: { type: 'feature', id: feature.body.id },
      actor: { userId: a.adminId, email: a.adminEmail },
    });
    expect(first.data).toMatchObject({ id: feature.body.id, name: 'Seen', status: 'READY' });
    expect(first.data.version).toBeUndefined();

    const updated = await a.client.graphql(
      'mutation ($id: ID!) { updateFeature(id: $id, input: { name: "Seen again" }) { id } }',
      { id: feature.body.id },
    );
    expect(updated.body.errors).toBeUndefined();
    const update = (await onlyUpdates.next()).recordChanged;
    expect(update).toMatchObject({ type: 'feature.updated', resource: { id: feature.body.id } });
    expect((await all.next()).recordChanged.type).toBe('feature.updated');
  });

  it("fans every event out to every subscribed socket, once each and in order, and none to another tenant's", async () => {
    const reader = await a.userWith(['READ_FEATURES']);
    const before = server.app.live.subscriptionCount;
    // Two selections of the same field: each socket gets the result of its own document, and the
    // graphql-ws client gives each subscription an id of its own (the message differs per socket).
    const NARROW = `subscription ($types: [String!]) { recordChanged(types: $types) { resource { id } } }`;
    const streams = Array.from({ length: 60 }, (_, i) =>
      subscribe<{ recordChanged: { id?: string; type?: string; resource: { id: string } } }>(
        open(reader.token),
        i % 3 === 0 ? NARROW : RECORDS,
        { types: ['feature.created'] },
      ),
    );
    const others = Array.from({ length: 10 }, () =>
      subscribe<{ recordChanged: { tenantId: string; resource: { id: string } } }>(open(b.token), RECORDS, {
        types: ['feature.created'],
      }),
    );
    await subscribed(before, streams.length + others.length);
    // Created concurrently too: events that commit close together reach a socket in one batch.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await a.client.post('/hr/features', { name: `Fanned ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => a.client.post('/hr/features', { name: `Fanned together ${i}` })),
    );
    for (const res of burst) expect(res.status).toBe(201);
    const burstIds = new Set(burst.map((res) => res.body.id as string));
    for (const [i, stream] of streams.entries()) {
      const got: { id?: string; type?: string; resource: { id: string } }[] = [];
      for (let n = 0; n < ids.length + burst.length; n++) got.push((await stream.next()).recordChanged);
      expect(got.slice(0, ids.length).map((e) => e.resource.id)).toEqual(ids);
      // The concurrent ones in their commit order, which the requests do not fix: each once.
      expect(new Set(got.slice(ids.length).map((e) => e.resource.id))).toEqual(burstIds);
      if (i % 3 === 0) expect(Object.keys(got[0])).toEqual(['resource']);
      else expect(got[0]).toMatchObject({ type: 'feature.created', resource: { id: ids[0] } });
    }
    // Nothing twice, and nothing of A's in B: the next event each socket gets is its tenant's next.
    const last = await a.client.post('/hr/features', { name: 'Fanned last' });
    expect(last.status).toBe(201);
    const inB = await b.client.post('/hr/features', { name: 'B after the fan-out' });
    expect(inB.status).toBe(201);
    for (const stream of streams) expect((await stream.next()).recordChanged.resource.id).toBe(last.body.id);
    for (const other of others)
      expect((await other.next()).recordChanged).toMatchObject({
        tenantId: b.tenantId,
        resource: { id: inB.body.id },
      });
    for (const stream of [...streams, ...others]) stream.stop();
  });

  it('refuses types that are unknown or not readable', async () => {
    const reader = await a.userWith(['READ_FEATURES']);
    const live = open(reader.token);
    const forbidden = subscribe(live, RECORDS, { types: ['concept.created'] });
    expect(await forbidden.ended).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN', status: 403 }) }),
    ]);
    const unknown = subscribe(live, RECORDS, { types: ['feature.exploded'] });
    expect(await unknown.ended).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST', status: 400 }) }),
    ]);
  });

  it('holds events to the data scope of queries', async () => {
    const subsidiary = async (name: string) => {
      const res = await a.client.graphql(
        'mutation ($input: SubsidiaryInput!) { createSubsidiary(input: $input) { id } }',
        { input: { name } },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.createSubsidiary.id as string;
    };
    const inScope = await subsidiary('North');
    const outOfScope = await subsidiary('South');
    const scoped = await a.userWith(['READ_LEADS'], { subsidiaryAccess: [inScope] });
    const live = open(scoped.token);
    const before = server.app.live.subscriptionCount;
    const stream = subscribe<{ recordChanged: any }>(live, RECORDS, { types: ['lead.created'] });
    await subscribed(before);
    const lead = async (companyName: string, subsidiaryId: string) => {
      const res = await a.client.graphql(
        'mutation ($input: LeadInput!) { createLead(input: $input) { id } }',
        { input: { companyName, subsidiaryId } },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.createLead.id as string;
    };
    await lead('Out of scope', outOfScope);
    const seen = await lead('In scope', inScope);
    const event = (await stream.next()).recordChanged;
    expect(event.resource.id).toBe(seen);
  });

  it("never shows tenant A's events to tenant B", async () => {
    const live = open(b.token);
    const before = server.app.live.subscriptionCount;
    const stream = subscribe<{ recordChanged: any }>(live, RECORDS, { types: ['feature.created'] });
    await subscribed(before);
    const inA = await a.client.post('/hr/features', { name: 'A only', status: 'READY' });
    expect(inA.status).toBe(201);
    const inB = await b.client.post('/hr/features', { name: 'B only', status: 'READY' });
    expect(inB.status).toBe(201);
    const event = (await stream.next()).recordChanged;
    expect(event).toMatchObject({ tenantId: b.tenantId, resource: { id: inB.body.id } });
  });

  it('closes with 4401 for a missing, bad or expired credential', async () => {
    expect((await open(undefined).closed).code).toBe(4401);
    expect((await open('not.a.token').closed).code).toBe(4401);
    const wrongKey = signToken(
      { secret: 'another-secret-of-at-least-32-bytes!!' },
      { sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId },
    );
    expect((await open(wrongKey).closed).code).toBe(4401);
    const expired = signToken(server.jwt, { sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId }, -10);
    expect((await open(expired).closed).code).toBe(4401);
  });

  it('ends the subscription when the user is deactivated', async () => {
    const carol = await a.userWith([]);
    const live = open(carol.token);
    const before = server.app.live.subscriptionCount;
    const stream = subscribe(live, NOTIFICATIONS);
    await subscribed(before);
    const res = await a.client.graphql(
      'mutation ($id: ID!) { updateUser(id: $id, input: { status: DISABLED }) { status } }',
      { id: carol.userId },
    );
    expect(res.body.errors).toBeUndefined();
    expect((await live.closed).code).toBe(4401);
    await stream.ended;
  });

  it('ends the subscription when the token expires', async () => {
    const short = signToken(server.jwt, { sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId }, 2);
    const live = open(short);
    const stream = subscribe(live, NOTIFICATIONS);
    const closed = await live.closed;
    expect(closed).toMatchObject({ code: 4401, reason: 'the credential has expired' });
    await stream.ended;
  });

  it('serves only subscriptions over WebSocket', async () => {
    const live = open(a.token);
    const query = subscribe(live, '{ me { id } }');
    expect(await query.ended).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/over HTTP/) }),
    ]);
  });

  it('stops within 3 s with a subscription open (closed with 1001) and a connection that sent nothing', async () => {
    // As a browser tab on GraphiQL holds: its WebSocket, and a spare connection opened ahead of need.
    const other = await startServer();
    let stopped = false;
    try {
      const t = await other.tenant('Live stop');
      const live = connect(other.baseUrl, t.token);
      sockets.push(live);
      const stream = subscribe(live, NOTIFICATIONS);
      await subscribed(0, 1, other);
      const spare = net.connect(Number(new URL(other.baseUrl).port), '127.0.0.1');
      await once(spare, 'connect');
      const spareClosed = once(spare, 'close');

      const started = Date.now();
      await other.close();
      stopped = true;
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await live.closed).code).toBe(1001);
      await spareClosed;
      await stream.ended;
    } finally {
      if (!stopped) await other.close();
    }
  });

  describe('on a second service process', () => {
    let second: Running | undefined;
    afterAll(async () => {
      if (!second) return;
      second.child.kill('SIGTERM');
      const { code } = await second.exited;
      expect(code).toBe(0);
      expect(errorLines(second.stdout())).toEqual([]);
    });

    it('gets the events committed through the first', async () => {
      const port = await freePort();
      second = await startService(
        childEnv({
          DATABASE_URL: await workerDatabaseUrl(),
          JWT_SECRET: server.jwt.secret,
          PORT: String(port),
          NODE_ENV: 'production',
        }),
      );
      const dave = await a.userWith([]);
      const live = connect(`http://127.0.0.1:${port}`, dave.token);
      sockets.push(live);
      const stream = subscribe<{ notificationAdded: { id: string; title: string } }>(live, NOTIFICATIONS);
      // The other process's subscription cannot be watched from here: notifications are sent
      // until one arrives, and the one that arrives must be one of them.
      const sent: string[] = [];
      let arrived: { id: string; title: string } | undefined;
      for (let i = 0; i < 30 && !arrived; i++) {
        sent.push((await notify(a, dave.email, `second process ${i}`)).id);
        arrived = await stream
          .next(2000)
          .then((v) => v.notificationAdded)
          .catch(() => undefined);
      }
      expect(arrived).toBeDefined();
      expect(sent).toContain(arrived!.id);
    }, 300_000);
  });
});
