import { signToken } from '../../src/auth/jwt';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

/**
 * "Sign out everywhere" with the service's own tokens (the CLI's `bms token`, the demo line): the
 * credential that signed out is refused from then on, and a token issued right after the sign-out
 * (a front end sending its user straight back to sign in) works, within the same second too.
 * Provider tokens: test/auth/oidc.test.ts.
 */
describe('signing out everywhere, then in again at once', () => {
  let server: TestServer;
  let t: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    t = await server.tenant('SignOut');
  });
  afterAll(() => server.close());

  const fresh = () => signToken(server.jwt, { sub: t.adminId, email: t.adminEmail, tenantId: t.tenantId });

  it('answers who was signed out and when, as a JSON object', async () => {
    const before = Date.now();
    const res = await new Client(server.baseUrl, fresh()).post('/access-control/sign-out');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: t.adminId, signedOutAt: expect.any(String) });
    expect(Date.parse(res.body.signedOutAt)).toBeGreaterThanOrEqual(before - 5);
    const gql = await new Client(server.baseUrl, fresh()).graphql(
      'mutation { signOutEverywhere { userId signedOutAt } }',
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.signOutEverywhere.userId).toBe(t.adminId);
  });

  it('refuses the credential that signed out, and accepts one issued right after (every time)', async () => {
    for (let i = 0; i < 8; i++) {
      const token = fresh();
      const client = new Client(server.baseUrl, token);
      expect((await client.get('/concepts/find-all')).status).toBe(200);
      expect((await client.post('/access-control/sign-out')).status).toBe(200);
      const refused = await client.get('/concepts/find-all');
      expectErrorBody(refused, 401);
      expect(refused.body.detail).toMatch(/signed out everywhere/);
      // At once: no wait for the next second.
      const again = await new Client(server.baseUrl, fresh()).get('/concepts/find-all');
      expect({ i, status: again.status, detail: again.body?.detail }).toEqual({
        i,
        status: 200,
        detail: undefined,
      });
    }
  });

  it("an administrator's sign-out of a user withdraws the user's earlier tokens, not later ones", async () => {
    const clerk = await t.userWith(['READ_CONCEPTS']);
    const token = (email: string) =>
      signToken(server.jwt, { sub: clerk.userId, email, tenantId: t.tenantId });
    for (let i = 0; i < 5; i++) {
      const before = token(clerk.email);
      expect((await new Client(server.baseUrl, before).get('/concepts/find-all')).status).toBe(200);
      const out = await new Client(server.baseUrl, fresh()).post(
        `/access-control/users/${clerk.userId}/sign-out`,
      );
      expect(out.body).toEqual({ userId: clerk.userId, signedOutAt: expect.any(String) });
      expectErrorBody(await new Client(server.baseUrl, before).get('/concepts/find-all'), 401);
      expect((await new Client(server.baseUrl, token(clerk.email)).get('/concepts/find-all')).status).toBe(
        200,
      );
    }
  });
});
