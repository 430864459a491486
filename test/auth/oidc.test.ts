import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import jwt from 'jsonwebtoken';
import { importJWK, SignJWT, UnsecuredJWT, type JWK } from 'jose';
import { issuerSettings, useIssuerSettings } from '../../src/auth/issuers';
import { DEFAULT_KEY_SET_OPTIONS } from '../../src/auth/key-sets';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { freePort } from '../support/process';
import { AUDIENCE, OidcProvider, privateKey, publicOf } from '../support/oidc';

/**
 * Sign-in with a tenant's own OpenID provider (docs/security.md): a real oidc-provider issues
 * JWT access tokens through client credentials; the service verifies them with the keys found
 * through the provider's discovery document.
 */
describe('tokens from a trusted OpenID provider', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let c: TestTenant;
  let provider: OidcProvider;
  let other: OidcProvider;
  let rsa1: JWK;
  const ec = privateKey('EC');
  const okp = privateKey('OKP');
  let alice: { userId: string; email: string };
  let carol: { userId: string; email: string; token: string };
  let docs: http.Server;
  let docsUrl: string;

  const bearer = (token: string) => new Client(server.baseUrl, token);
  const now = () => Math.floor(Date.now() / 1000);

  async function expect401(token: string, detail: RegExp) {
    const res = await bearer(token).get('/concepts/find-all');
    expectErrorBody(res, 401);
    expect(res.body.detail).toMatch(detail);
    return res;
  }

  /** A token signed here with a key of the provider's (as the provider would, or worse). */
  async function signed(key: JWK, claims: Record<string, unknown>, alg = 'RS256') {
    return new SignJWT({ email: alice.email, ...claims })
      .setProtectedHeader({ alg, kid: key.kid })
      .setIssuer((claims.iss as string) ?? provider.issuer)
      .setAudience((claims.aud as string) ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime((claims.exp as number) ?? now() + 600)
      .sign(await importJWK(key, alg));
  }

  beforeAll(async () => {
    server = await startServer();
    // Refetches may follow each other at once here, and keys age in half a second.
    useIssuerSettings({ cooldownMs: 0, maxAgeMs: 500 });
    [a, b, c] = await Promise.all([
      server.tenant('OIDC A'),
      server.tenant('OIDC B'),
      server.tenant('OIDC C'),
    ]);
    alice = await a.userWith(['READ_CONCEPTS', 'CREATE_CONCEPTS']);
    carol = await a.userWith(['READ_CONCEPTS']);
    rsa1 = privateKey('RSA');
    provider = await OidcProvider.start(
      [rsa1, ec, okp],
      [
        { id: 'alice', secret: 'a'.repeat(32), email: alice.email },
        { id: 'alice-es', secret: 'b'.repeat(32), email: alice.email, alg: 'ES256' },
        { id: 'alice-ed', secret: 'c'.repeat(32), email: alice.email, alg: 'EdDSA' },
        { id: 'carol', secret: 'd'.repeat(32), email: carol.email },
        { id: 'stranger', secret: 'e'.repeat(32), email: 'stranger@example.test' },
      ],
    );
    other = await OidcProvider.start(
      [privateKey('RSA')],
      [
        // Names tenant A's user: it must still never act in tenant A.
        { id: 'alice', secret: 'f'.repeat(32), email: alice.email },
        { id: 'newcomer', secret: 'g'.repeat(32), email: 'newcomer@example.test' },
        { id: 'outsider', secret: 'h'.repeat(32), email: 'outsider@elsewhere.test' },
      ],
    );
    // Providers that publish something unusable, each under a path of its own.
    docs = http.createServer((req, res) => {
      const base = `${docsUrl}/${req.url!.split('/')[1]}`;
      const send = (body: unknown) =>
        res.setHeader('content-type', 'application/json').end(JSON.stringify(body));
      if (req.url!.endsWith('/.well-known/openid-configuration')) {
        if (req.url!.startsWith('/nojwks')) return send({ issuer: base });
        if (req.url!.startsWith('/wrongissuer'))
          return send({ issuer: 'https://else.test', jwks_uri: `${base}/jwks` });
        return send({ issuer: base, jwks_uri: `${base}/jwks` });
      }
      if (req.url!.startsWith('/big/'))
        return send({
          keys: Array.from({ length: 40 }, () => publicOf(rsa1)).concat([
            { kty: 'RSA', n: 'x'.repeat(70_000), e: 'AQAB' } as JWK,
          ]),
        });
      if (req.url!.startsWith('/malformed/'))
        return res.setHeader('content-type', 'application/json').end('{"keys": [');
      if (req.url!.startsWith('/symmetric/'))
        return send({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 's' }] });
      if (req.url!.startsWith('/p384/'))
        return send({ keys: [{ ...publicOf(privateKey('EC')), crv: 'P-384' }] });
      if (req.url!.startsWith('/private/')) return send({ keys: [rsa1] });
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
    docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    useIssuerSettings({
      cooldownMs: DEFAULT_KEY_SET_OPTIONS.cooldownMs,
      maxAgeMs: DEFAULT_KEY_SET_OPTIONS.maxAgeMs,
    });
    await Promise.all([provider?.stop(), other?.stop()]);
    docs?.close();
    await server.close();
  });

  const register = (t: TestTenant, issuer: string, extra: Record<string, unknown> = {}) =>
    t.client.post('/trusted-issuers', { issuer, audiences: [AUDIENCE], ...extra });

  it('refuses an issuer it cannot use, naming the problem, and stores nothing', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const cases: [string, RegExp][] = [
      ['https://', /absolute URL/],
      ['http://idp.example.com', /must use https/],
      [unreachable, /could not be fetched/],
      [`${docsUrl}/nojwks`, /has no jwks_uri/],
      [`${docsUrl}/wrongissuer`, /names the issuer "https:\/\/else.test"/],
      [`${docsUrl}/big`, /larger than 65536 bytes/],
      [`${docsUrl}/malformed`, /is not JSON/],
      [`${docsUrl}/symmetric`, /symmetric key/],
      [`${docsUrl}/p384`, /type the service does not accept \(EC P-384\)/],
      [`${docsUrl}/private`, /private key/],
    ];
    for (const [issuer, detail] of cases) {
      const res = await register(a, issuer);
      expectErrorBody(res, 400);
      expect(res.body.detail).toMatch(detail);
    }
    expectErrorBody(await register(a, provider.issuer, { audiences: [] }), 400);
    expectErrorBody(await register(a, provider.issuer, { userClaim: 'name' }), 400);
    expectErrorBody(await register(a, provider.issuer, { createUsersWithRole: 'no-such-role' }), 400);
    expect((await a.client.get('/trusted-issuers')).body).toEqual([]);
  });

  it('only a super-admin registers an issuer; READ_USERS lists them', async () => {
    const reader = await a.userWith(['READ_USERS']);
    expectErrorBody(await register(reader as unknown as TestTenant, provider.issuer), 403);
  });

  it('registers the provider from its discovery document; another tenant cannot register it too', async () => {
    const res = await register(a, provider.issuer, { allowedDomains: ['example.test'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      issuer: provider.issuer,
      jwksUri: `${provider.issuer}/jwks`,
      audiences: [AUDIENCE],
      userClaim: 'email',
      createUsers: false,
    });
    expect(res.headers.get('location')).toBe(`/api/v1/trusted-issuers/${res.body.id}`);
    expect((await a.client.get(`/trusted-issuers/${res.body.id}`)).body.issuer).toBe(provider.issuer);
    expectErrorBody(await register(a, provider.issuer), 409);
    const again = await register(b, provider.issuer);
    expectErrorBody(again, 409);
    expect(again.body.detail).toMatch(/another tenant/);
    expect((await b.client.get('/trusted-issuers')).body).toEqual([]);
    // Registering it is in A's history, and only in A's.
    const history = `/audit-log?recordType=TrustedIssuer&recordId=${res.body.id}`;
    expect((await a.client.get(history)).body.content).toEqual([
      expect.objectContaining({ type: 'CREATE', userId: a.adminId }),
    ]);
    expect((await b.client.get(history)).body.content).toEqual([]);
    expect(
      (await register(b, other.issuer, { allowedDomains: ['example.test'], createUsersWithRole: undefined }))
        .status,
    ).toBe(201);
    await server.callersHeard();
  });

  it('accepts RS256, ES256 and EdDSA access tokens from the provider, acting as the user they name', async () => {
    for (const client of ['alice', 'alice-es', 'alice-ed']) {
      const token = await provider.token(client);
      const res = await bearer(token).post('/concepts', { name: `by ${client}`, buildingType: 'ROW' });
      expect(res.status).toBe(201);
      expect(res.body.createdBy).toBe(alice.email);
    }
    const gql = await bearer(await provider.token('alice')).graphql('{ allConcepts { name } }');
    expect(gql.status).toBe(200);
    expect(gql.body.data!.allConcepts.map((x: { name: string }) => x.name)).toContain('by alice-ed');
  });

  it('signs out with a provider token; a token issued right after works, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const token = await provider.token('alice');
      expect((await bearer(token).get('/concepts/find-all')).status).toBe(200);
      const out = await bearer(token).post('/access-control/sign-out');
      expect(out.body).toEqual({ userId: alice.userId, signedOutAt: expect.any(String) });
      await expect401(token, /signed out everywhere/);
      // Straight back to the provider: its token's whole-second iat may be the sign-out's second.
      const again = await bearer(await provider.token('alice')).get('/concepts/find-all');
      expect({ i, status: again.status, detail: again.body?.detail }).toEqual({
        i,
        status: 200,
        detail: undefined,
      });
    }
    // A token without a jti is known by its digest; one from an earlier second is refused too.
    const earlier = await provider.token('alice');
    await new Promise((r) => setTimeout(r, 1100));
    const asking = await signed(rsa1, {});
    expect((await bearer(asking).post('/access-control/sign-out')).status).toBe(200);
    await expect401(asking, /signed out everywhere/);
    await expect401(earlier, /signed out everywhere/);
    expect((await bearer(await signed(rsa1, { exp: now() + 601 })).get('/concepts/find-all')).status).toBe(
      200,
    );
  });

  it("never lets a token act in another tenant: B's provider naming A's user, or a forged tenant claim", async () => {
    // Tenant B trusts `other`; its token names A's user, who is not a user of B.
    await expect401(await other.token('alice'), /names no user of the tenant/);
    // Signed with a key of B's provider but claiming A's issuer: A's keys do not verify it.
    const forged = await new SignJWT({ email: alice.email, tenantId: a.tenantId })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-in-a' })
      .setIssuer(provider.issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime(now() + 600)
      .sign(await importJWK(privateKey('RSA', 'not-in-a'), 'RS256'));
    await expect401(forged, /key its issuer does not publish/);
  });

  it('refuses every bad token with one 401 body', async () => {
    const publicPem = createPublicKey({ key: rsa1 as never, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    const cases: [string, RegExp][] = [
      [
        new UnsecuredJWT({ email: alice.email })
          .setIssuer(provider.issuer)
          .setAudience(AUDIENCE)
          .setExpirationTime(now() + 600)
          .encode(),
        /algorithm none is not accepted/,
      ],
      // The provider's public key used as an HMAC secret: HS256 is only ever the service's own.
      [
        jwt.sign({ email: alice.email, iss: provider.issuer, aud: AUDIENCE }, publicPem as string, {
          expiresIn: 600,
        }),
        /invalid/,
      ],
      [await signed(rsa1, { aud: 'https://someone-else.test' }), /not meant for this service/],
      [await signed(rsa1, { iss: 'https://unknown-issuer.test' }), /not trusted here/],
      [await signed(rsa1, { exp: now() - 60 }), /has expired/],
      [
        await new SignJWT({ email: alice.email, nbf: now() + 3600 })
          .setProtectedHeader({ alg: 'RS256', kid: rsa1.kid })
          .setIssuer(provider.issuer)
          .setAudience(AUDIENCE)
          .setExpirationTime(now() + 7200)
          .sign(await importJWK(rsa1, 'RS256')),
        /not valid yet/,
      ],
      [await signed(privateKey('RSA', 'unknown-kid'), {}), /key its issuer does not publish/],
      [await signed(rsa1, { email: 'nobody@example.test' }), /names no user/],
      [await signed(rsa1, { email: 'someone@elsewhere.test' }), /names no user/],
    ];
    for (const [token, detail] of cases) await expect401(token, detail);

    // GraphQL over HTTP and a WebSocket's connection_init refuse it alike.
    const gql = await bearer(cases[2][0]).graphql('{ allConcepts { name } }');
    expect(gql.status).toBe(401);
    expect(gql.body.errors).toHaveLength(1);
    expect(gql.body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    expect(await wsClose(cases[4][0])).toBe(4401);
  });

  it('refuses a disabled user, from the next request', async () => {
    const token = await provider.token('carol');
    expect((await bearer(token).get('/concepts/find-all')).status).toBe(200);
    const res = await a.client.graphql(
      `mutation { updateUser(id: "${carol.userId}", input: { status: DISABLED }) { status } }`,
    );
    expect(res.body.errors).toBeUndefined();
    await expect401(token, /not active/);
  });

  it('follows key rotation: both keys during the overlap, the old one refused once removed', async () => {
    const oldToken = await provider.token('alice');
    expect((await bearer(oldToken).get('/concepts/find-all')).status).toBe(200);
    const rsa2 = privateKey('RSA');
    await provider.run([rsa2, rsa1, ec, okp]);
    const newToken = await provider.token('alice');
    expect(newToken).not.toBe(oldToken);
    // An unknown kid makes the service fetch the key set again.
    expect((await bearer(newToken).get('/concepts/find-all')).status).toBe(200);
    expect((await bearer(oldToken).get('/concepts/find-all')).status).toBe(200);
    await provider.run([rsa2, ec, okp]);
    await new Promise((r) => setTimeout(r, 600));
    // The aged set is refreshed in the background of this request...
    expect((await bearer(newToken).get('/concepts/find-all')).status).toBe(200);
    await waitFor(async () => (await bearer(oldToken).get('/concepts/find-all')).status === 401);
    await expect401(oldToken, /key its issuer does not publish/);
    rotated = newToken;
  });

  let rotated: string;

  it('keeps serving with the keys it holds while the provider is down, and never hangs', async () => {
    await provider.stop();
    await new Promise((r) => setTimeout(r, 600));
    for (let i = 0; i < 3; i++) expect((await bearer(rotated).get('/concepts/find-all')).status).toBe(200);
    const started = Date.now();
    await expect401(await signed(privateKey('RSA', 'later-key'), {}), /key its issuer does not publish/);
    expect(Date.now() - started).toBeLessThan(issuerSettings().timeoutMs + 1000);
    await provider.run([privateKey('RSA'), ec, okp]);
  });

  it('creates an unknown user on first sign-in when the issuer says so, within its domains', async () => {
    const role = await c.client.post('/roles/tenant', {
      name: 'idp-reader',
      permissions: { configuratorPermissions: ['READ_CONCEPTS'] },
    });
    expect(role.status).toBeLessThan(300);
    // Creation is off for tenant A's issuer: an unknown e-mail is refused and nobody is created.
    await expect401(await provider.token('stranger'), /names no user/);
    const strangers = await a.client.graphql('{ allUsers { email } }');
    expect(strangers.body.data!.allUsers.map((u: { email: string }) => u.email)).not.toContain(
      'stranger@example.test',
    );

    // Tenant C trusts a third provider with creation on.
    const third = await OidcProvider.start(
      [privateKey('EC'), privateKey('RSA')],
      [
        { id: 'newcomer', secret: 'i'.repeat(32), email: 'newcomer@example.test', alg: 'ES256' },
        { id: 'outsider', secret: 'j'.repeat(32), email: 'outsider@elsewhere.test', alg: 'ES256' },
      ],
    );
    try {
      const reg = await register(c, third.issuer, {
        allowedDomains: ['example.test'],
        createUsersWithRole: 'idp-reader',
      });
      expect(reg.status).toBe(201);
      expect(reg.body).toMatchObject({ createUsers: true, createRole: 'idp-reader' });
      await server.callersHeard();
      const token = await third.token('newcomer');
      expect((await bearer(token).get('/concepts/find-all')).status).toBe(200);
      // Holds the role's permissions and no more.
      expectErrorBody(await bearer(token).post('/concepts', { name: 'x', buildingType: 'ROW' }), 403);
      const users = (await c.client.graphql('{ allUsers { email roles } }')).body.data!.allUsers;
      expect(users).toContainEqual({ email: 'newcomer@example.test', roles: ['idp-reader'] });
      await expect401(await third.token('outsider'), /e-mail domain elsewhere.test may not sign in/);
      const after = (await c.client.graphql('{ allUsers { email } }')).body.data!.allUsers;
      expect(after.map((u: { email: string }) => u.email)).not.toContain('outsider@elsewhere.test');
    } finally {
      await third.stop();
    }
  });

  it('with the sub claim, matches the subject a user was created with, never an e-mail address', async () => {
    const bySubject = await OidcProvider.start(
      [privateKey('RSA')],
      [
        { id: 'subject-1', secret: 'k'.repeat(32), email: 'subject-one@example.test' },
        // Names the tenant's administrator by e-mail: under the sub claim that is no one.
        { id: 'takeover', secret: 'l'.repeat(32), email: c.adminEmail },
      ],
    );
    try {
      const reg = await register(c, bySubject.issuer, {
        userClaim: 'sub',
        allowedDomains: ['example.test'],
        createUsersWithRole: 'idp-reader',
      });
      expect(reg.status).toBe(201);
      expect(reg.body).toMatchObject({ userClaim: 'sub' });
      await server.callersHeard();
      const users = async () =>
        (
          (await c.client.graphql('{ allUsers { id email } }')).body.data!.allUsers as {
            id: string;
            email: string;
          }[]
        )
          .filter((u) => u.email === 'subject-one@example.test')
          .map((u) => u.id);
      // The first sign-in creates the user with its subject; the next ones find that user.
      expect((await bearer(await bySubject.token('subject-1')).get('/concepts/find-all')).status).toBe(200);
      const [created] = await users();
      expect(created).toBeDefined();
      const again = await bearer(await bySubject.token('subject-1')).post('/concepts', {
        name: 'by subject',
        buildingType: 'ROW',
      });
      expectErrorBody(again, 403); // the role reads only: the same user, with its role
      expect(await users()).toEqual([created]);
      // An e-mail claim naming an existing user does not sign in as them under the sub claim.
      await expect401(await bySubject.token('takeover'), /could not be created/);
    } finally {
      await bySubject.stop();
    }
  });

  it("an INVITED user's first sign-in through the provider accepts the invitation; without a live one it is refused", async () => {
    const d = await server.tenant('OIDC D');
    const invite = async (email: string) => {
      const res = await d.client.graphql(
        'mutation($i: CreateUserInput!) { createUser(input: $i) { id status } }',
        {
          i: { email, status: 'INVITED' },
        },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data!.createUser.id as string;
    };
    const statusOf = async (id: string) =>
      (await d.client.graphql('query($id: ID!) { user(id: $id) { status } }', { id })).body.data!.user.status;
    const invitation = async (id: string) =>
      (
        await server.orm.em
          .fork()
          .getConnection()
          .execute(`select used_at from user_invitation where tenant_id = ? and user_id = ?`, [
            d.tenantId,
            id,
          ])
      )[0] as { used_at: Date | null };
    const invitee = await invite('invitee@example.test');
    const late = await invite('late@example.test');
    await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `update user_invitation set expires_at = now() - interval '1 minute' where tenant_id = ? and user_id = ?`,
        [d.tenantId, late],
      );
    const idp = await OidcProvider.start(
      [privateKey('RSA')],
      [
        { id: 'invitee', secret: 'm'.repeat(32), email: 'invitee@example.test' },
        { id: 'late', secret: 'n'.repeat(32), email: 'late@example.test' },
      ],
    );
    try {
      expect((await register(d, idp.issuer, { allowedDomains: ['example.test'] })).status).toBe(201);
      await server.callersHeard();
      expect((await invitation(invitee)).used_at).toBeNull();
      // The first sign-in is the set-up the invitation asked for: ACTIVE, the invitation spent.
      expect((await bearer(await idp.token('invitee')).get('/access-control/my-access')).status).toBe(200);
      expect(await statusOf(invitee)).toBe('ACTIVE');
      expect((await invitation(invitee)).used_at).not.toBeNull();
      expect((await bearer(await idp.token('invitee')).get('/access-control/my-access')).status).toBe(200);
      // An expired invitation activates nobody: the user stays INVITED until invited again.
      const refused = await bearer(await idp.token('late')).get('/access-control/my-access');
      expectErrorBody(refused, 401);
      expect(refused.body.detail).toMatch(/invited and has no invitation left/);
      expect(await statusOf(late)).toBe('INVITED');
      expect((await invitation(late)).used_at).toBeNull();
    } finally {
      await idp.stop();
    }
  });

  it('stops trusting a removed issuer at once', async () => {
    const token = await provider.token('alice');
    expect((await bearer(token).get('/concepts/find-all')).status).toBe(200);
    const [issuer] = (await a.client.get('/trusted-issuers')).body;
    expect((await a.client.delete(`/trusted-issuers/${issuer.id}`)).status).toBe(204);
    expectErrorBody(await a.client.delete(`/trusted-issuers/${issuer.id}`), 404);
    await server.callersHeard();
    await expect401(token, /not trusted here/);
  });

  function wsClose(token: string): Promise<number> {
    return new Promise((resolve) => {
      const client = createClient({
        url: `${server.baseUrl.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        connectionParams: { Authorization: `Bearer ${token}` },
        on: { closed: (e) => resolve((e as { code: number }).code) },
        onNonLazyError: () => undefined,
      });
      void client;
    });
  }
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
