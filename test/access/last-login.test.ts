import { signedIn, LAST_LOGIN_EVERY_MS } from '../../src/auth/last-login';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { waitFor } from '../events/receiver';

/**
 * `lastLogin` is written at sign-in, outside the request, at most once a minute per user: two
 * sign-ins in quick succession write it once; and the write drops no remembered caller.
 */
describe('lastLogin', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Last login');
  });
  afterAll(() => server.close());

  /** Signs `userId` in at `at`, a failed write failing the test. */
  const write = (userId: string, at: number) =>
    signedIn(
      server.orm.em,
      a.tenantId,
      userId,
      (err) => {
        throw err;
      },
      at,
    );
  const lastLogin = async (userId: string): Promise<string | null> => {
    const res = await a.client.graphql('query($id: ID!) { user(id: $id) { lastLogin } }', { id: userId });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.user.lastLogin;
  };

  it('two sign-ins a moment apart write it once', async () => {
    const u = await a.userWith([]);
    expect(await lastLogin(u.userId)).toBeNull();
    const started = Date.now();
    expect((await u.client.get('/notifications/unread-count')).status).toBe(200);
    let first: string | null = null;
    await waitFor(async () => (first = await lastLogin(u.userId)) !== null, 10_000, 'the first write');
    expect(new Date(first!).getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect((await u.client.get('/notifications/unread-count')).status).toBe(200);
    // Whatever a second write would take, it would be done long before this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await lastLogin(u.userId)).toBe(first);
  });

  it('within the minute nothing more is written; a minute later it is', async () => {
    const u = await a.userWith([]);
    const t0 = Date.now();
    await write(u.userId, t0);
    const written = await lastLogin(u.userId);
    expect(new Date(written!).getTime()).toBe(t0);
    expect(signedIn(server.orm.em, a.tenantId, u.userId, () => undefined, t0 + 1000)).toBeUndefined();
    expect(await lastLogin(u.userId)).toBe(written);
    await write(u.userId, t0 + LAST_LOGIN_EVERY_MS);
    expect(new Date((await lastLogin(u.userId))!).getTime()).toBe(t0 + LAST_LOGIN_EVERY_MS);
  });

  it('the write does not change the caller version', async () => {
    const u = await a.userWith([]);
    const version = async () =>
      (
        await server.orm.em
          .getConnection()
          .execute('select version from caller_version where id = ?', [a.tenantId])
      )[0]?.version;
    const before = await version();
    await write(u.userId, Date.now() + 10 * LAST_LOGIN_EVERY_MS);
    expect(await version()).toBe(before);
  });
});
