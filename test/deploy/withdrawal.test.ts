import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { signToken } from '../../src/auth/jwt';
import { Client, expectErrorBody } from '../support/http';
import { deployment, startPair, type Deployment, type ProcessPair } from './deployment';

/**
 * Withdrawing credentials with two service processes on one database: a change made through one
 * process (a key revoked, a user signed out everywhere or disabled) is refused by the other within
 * a second, and the other's live subscriptions of that credential are closed (4401).
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;
jest.setTimeout(120_000);

const NOTIFICATIONS = 'subscription { notificationAdded { id } }';

/** A live subscription of the credential on a process; resolves with the close code. */
async function subscribed(base: string, credential: string): Promise<{ closed: Promise<number> }> {
  let closedWith: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (closedWith = resolve));
  const client = createClient({
    url: `${base.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: { Authorization: `Bearer ${credential}` },
    on: { closed: (e) => closedWith((e as { code: number }).code) },
    onNonLazyError: () => undefined,
  });
  const acknowledged = new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    setTimeout(() => reject(new Error('the connection was not acknowledged')), 10_000).unref();
  });
  client.subscribe(
    { query: NOTIFICATIONS },
    { next: () => undefined, error: () => undefined, complete: () => undefined },
  );
  await acknowledged;
  // Wrapped: an async function's answer that is itself a promise would be waited for.
  return {
    closed: Promise.race([
      closed,
      new Promise<number>((_, reject) =>
        setTimeout(() => reject(new Error('the socket was not closed')), 15_000).unref(),
      ),
    ]),
  };
}

/** How long until `probe` holds, polling every 20 ms (fails after 5 s). */
async function within(probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > 5000) throw new Error('not withdrawn within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

onServer('withdrawing credentials across two processes', () => {
  let d: Deployment;
  let pair: ProcessPair | undefined;
  let one: string;
  let two: string;
  let tenant: Awaited<ReturnType<Deployment['tenant']>>;

  beforeAll(async () => {
    d = await deployment('withdraw');
    pair = await startPair(d, {
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_PER_TENANT: '0',
      DB_POOL_SIZE: '4',
    });
    [one, two] = pair.bases;
    tenant = await d.tenant('Withdraw');
  });
  afterAll(async () => {
    await pair?.stop();
    await d?.close();
  });

  const refused = (base: string, credential: string) => async () =>
    (await new Client(base, credential).get('/concepts/find-all')).status === 401;

  it('a revoked API key: refused by the other process within a second, its subscription closed', async () => {
    const admin = new Client(one, tenant.token());
    const created = await admin.post('/api-keys', { name: 'erp', permissions: ['READ_CONCEPTS'] });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect((await new Client(two, key).get('/concepts/find-all')).status).toBe(200);
    const { closed } = await subscribed(two, key);
    expect((await admin.post(`/api-keys/${created.body.id}/revoke`)).status).toBe(200);
    expect(await within(refused(two, key))).toBeLessThan(1000);
    expect(await closed).toBe(4401);
    expectErrorBody(await new Client(two, key).get('/concepts/find-all'), 401);
  });

  it('sign out everywhere: older tokens refused by the other process within a second, subscriptions closed', async () => {
    const token = tenant.token();
    expect((await new Client(two, token).get('/concepts/find-all')).status).toBe(200);
    const { closed } = await subscribed(two, token);
    const out = await new Client(one, token).post('/access-control/sign-out');
    expect(out.status).toBe(200);
    expect(await within(refused(two, token))).toBeLessThan(1000);
    expect(await closed).toBe(4401);
    const res = await new Client(two, token).get('/concepts/find-all');
    expect(res.body.detail).toMatch(/signed out everywhere/);
    // A token issued after the moment works.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await new Client(two, tenant.token()).get('/concepts/find-all')).status).toBe(200);
  });

  it('an administrator signs another user out; a disabled user is closed out too', async () => {
    const admin = new Client(one, tenant.token());
    const made = await admin.graphql(
      'mutation { createUser(input: { email: "clerk@withdraw.test" }) { id email } }',
    );
    expect(made.body.errors).toBeUndefined();
    const user = made.body.data.createUser as { id: string; email: string };
    const token = signToken(
      { secret: d.secret },
      { sub: user.id, email: user.email, tenantId: tenant.tenantId },
    );
    expect((await new Client(two, token).get('/notifications/unread-count')).status).toBe(200);
    const { closed } = await subscribed(two, token);
    expect((await admin.post(`/access-control/users/${user.id}/sign-out`)).status).toBe(200);
    expect(
      await within(
        async () => (await new Client(two, token).get('/notifications/unread-count')).status === 401,
      ),
    ).toBeLessThan(1000);
    expect(await closed).toBe(4401);

    await new Promise((r) => setTimeout(r, 1100));
    const fresh = signToken(
      { secret: d.secret },
      { sub: user.id, email: user.email, tenantId: tenant.tenantId },
    );
    const { closed: closedAgain } = await subscribed(two, fresh);
    const disabled = await admin.graphql(
      `mutation { updateUser(id: "${user.id}", input: { status: DISABLED }) { status } }`,
    );
    expect(disabled.body.errors).toBeUndefined();
    expect(
      await within(
        async () => (await new Client(two, fresh).get('/notifications/unread-count')).status === 401,
      ),
    ).toBeLessThan(1000);
    expect(await closedAgain).toBe(4401);
  });
});
