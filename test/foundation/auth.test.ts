import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

/** docs/conventions.md "Credentials": anything but a valid, current credential of an active user is 401. */
describe('authentication', () => {
  let server: TestServer;
  let a: TestTenant;
  const claims = () => ({ sub: a.adminId, email: a.adminEmail, tenantId: a.tenantId });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Auth');
  });
  afterAll(() => server.close());

  const call = (authorization?: string) =>
    new Client(server.baseUrl).get(
      '/concepts/find-all',
      authorization === undefined ? {} : { authorization },
    );

  async function expect401(authorization?: string) {
    const res = await call(authorization);
    expectErrorBody(res, 401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  }

  it('accepts the valid token', async () => {
    expect((await call(`Bearer ${a.token}`)).status).toBe(200);
  });

  it('rejects a missing or malformed header', async () => {
    await expect401(undefined);
    await expect401('');
    await expect401(`Basic ${Buffer.from('a:b').toString('base64')}`);
    await expect401('Bearer');
    await expect401('Bearer not-a-jwt');
    await expect401(`Bearer ${a.token}x`);
  });

  it('says which part of the header is wrong', async () => {
    expect((await call('Bearer garbage')).body.detail).toMatch(/neither a JWT .* nor an API key/);
    expect((await call('Bearer eyJ...')).body.detail).toMatch(/neither a JWT .* nor an API key/);
    expect((await call('Token abc')).body.detail).toMatch(/not "Bearer <token>"/);
  });

  it('rejects a wrong signature, an expired token and a token without exp', async () => {
    await expect401(
      `Bearer ${jwt.sign(claims(), 'another-secret-that-is-long-enough-0123456789', { expiresIn: '1h' })}`,
    );
    await expect401(
      `Bearer ${jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 10 }, server.jwt.secret)}`,
    );
    await expect401(`Bearer ${jwt.sign(claims(), server.jwt.secret)}`);
    await expect401(
      `Bearer ${jwt.sign({ ...claims(), nbf: Math.floor(Date.now() / 1000) + 3600 }, server.jwt.secret, { expiresIn: '2h' })}`,
    );
  });

  it('refuses a token it has accepted once it expires (verified tokens are remembered)', async () => {
    const token = `Bearer ${jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) + 2 }, server.jwt.secret)}`;
    expect((await call(token)).status).toBe(200);
    expect((await call(token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await expect401(token);
  });

  it('rejects alg none and other algorithms', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ ...claims(), exp: Math.floor(Date.now() / 1000) + 3600 }),
    ).toString('base64url');
    await expect401(`Bearer ${header}.${payload}.`);
    await expect401(
      `Bearer ${jwt.sign(claims(), server.jwt.secret, { algorithm: 'HS512', expiresIn: '1h' })}`,
    );
  });

  it('rejects missing claims, an unknown user and a user of another tenant named in the token', async () => {
    const sign = (c: object) => `Bearer ${jwt.sign(c, server.jwt.secret, { expiresIn: '1h' })}`;
    await expect401(sign({ email: a.adminEmail, tenantId: a.tenantId }));
    await expect401(sign({ sub: a.adminId, email: a.adminEmail }));
    await expect401(sign({ sub: a.adminId, tenantId: a.tenantId }));
    await expect401(sign({ sub: randomUUID(), email: 'ghost@example.test', tenantId: a.tenantId }));
    const b = await server.tenant('Other');
    await expect401(sign({ sub: b.adminId, email: b.adminEmail, tenantId: a.tenantId }));
  });

  it('rejects a user who is no longer active, from the next request on', async () => {
    const u = await a.userWith(['READ_CONCEPTS']);
    expect((await u.client.get('/concepts/find-all')).status).toBe(200);
    await server.orm.em
      .getConnection()
      .execute(`update app_user set status = 'SUSPENDED' where id = ?`, [u.userId]);
    expectErrorBody(await u.client.get('/concepts/find-all'), 401);
  });

  it('GraphQL: no credential and a bad one are both an HTTP 401 (test/foundation/graphql-auth-errors)', async () => {
    const anon = new Client(server.baseUrl);
    const res = await anon.graphql('{ allConcepts { id } }');
    expect(res.status).toBe(401);
    expect(res.body.errors![0].extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
    expect(res.body.data).toBeUndefined();
    const bad = await anon.request(
      'POST',
      '/graphql',
      { query: '{ allConcepts { id } }' },
      { authorization: 'Bearer nope' },
    );
    expect(bad.status).toBe(401);
    const introspection = await anon.graphql('{ __schema { queryType { name } } }');
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('permissions', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Perms');
  });
  afterAll(() => server.close());

  it('a user without the permission gets 403 and nothing changes; with it, succeeds', async () => {
    const reader = await a.userWith(['READ_CONCEPTS']);
    const writer = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
    const res = await reader.client.post('/concepts', { name: 'Nope' });
    expectErrorBody(res, 403);
    expect(res.body.detail).toContain('CREATE_CONCEPTS');
    expect((await reader.client.get('/concepts/find-all')).body).toEqual([]);
    expect((await writer.client.post('/concepts', { name: 'Yes' })).status).toBe(201);
    expectErrorBody(await writer.client.get('/tax-percentages/find-all'), 403);
    const none = await a.userWith([]);
    expectErrorBody(await none.client.get('/concepts/find-all'), 403);
  });

  it('a role change takes effect on the next request', async () => {
    const u = await a.userWith([]);
    expectErrorBody(await u.client.get('/tax-percentages/find-all'), 403);
    await server.orm.em
      .getConnection()
      .execute(`update app_user set roles = array['SUPER_ADMIN'] where id = ?`, [u.userId]);
    expect((await u.client.get('/tax-percentages/find-all')).status).toBe(200);
  });
});

describe('a deactivated tenant', () => {
  it('shuts its users out (401) on the very next request, other tenants unaffected', async () => {
    const server = await startServer();
    try {
      const a = await server.tenant('Deactivated');
      const b = await server.tenant('StillActive');
      // Seen active first, so nothing remembered from this request may let the next one in.
      expect((await a.client.get('/concepts/find-all')).status).toBe(200);
      await server.orm.em
        .getConnection()
        .execute(`update tenant set active = false where id = ?`, [a.tenantId]);
      expectErrorBody(await a.client.get('/concepts/find-all'), 401);
      expect((await b.client.get('/concepts/find-all')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
