import { createLogger } from '../../src/logger';
import { eventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { ACCEPT_PATH } from '../../src/domain/access/invitations';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody, type Response } from '../support/http';
import { startSmtp } from '../support/smtp';
import { waitFor } from '../events/receiver';

describe('invitations of users created INVITED', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Inviting');
    b = await server.tenant('Other');
    smtp = await startSmtp();
    worker = startEventWorker(server.orm, createLogger('silent'), {
      ...eventSettings({}),
      smtpUrl: smtp.url,
      mailFrom: 'access@service.test',
      pollIntervalMs: 50,
    });
  }, 120_000);
  afterAll(async () => {
    await worker.stop();
    await smtp.close();
    await server.close();
  });

  /** The accept route as a browser calls it: no credential at all. */
  const accept = async (token: string): Promise<Response> => {
    const res = await fetch(server.baseUrl + ACCEPT_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
  };

  /** The token of the `n`th invitation mailed to `email`, read from the link in the message. */
  const mailedToken = async (email: string, n = 1): Promise<string> => {
    const mails = await waitFor(() => smtp.to(email).length >= n && smtp.to(email));
    const mail = mails[n - 1];
    expect(mail.parsed.subject).toMatch(/^Your invitation to /);
    const link = /(http\S+\/api\/v1\/public\/invitations\/accept\?token=\S+)/.exec(mail.parsed.text ?? '');
    expect(link).not.toBeNull();
    return new URL(link![1]).searchParams.get('token')!;
  };

  const createUser = (tenant: TestTenant, input: Record<string, unknown>) =>
    tenant.client.graphql(`mutation($i: CreateUserInput!) { createUser(input: $i) { id status } }`, {
      i: input,
    });
  const statusOf = async (id: string) =>
    (await a.client.graphql(`query($id: ID!) { user(id: $id) { status } }`, { id })).body.data.user.status;

  const invite = async (tenant: TestTenant, email: string) => {
    const res = await createUser(tenant, { email, firstName: 'New', status: 'INVITED' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createUser.status).toBe('INVITED');
    return res.body.data.createUser as { id: string };
  };

  it('mails a link; redeeming it once activates the user and answers a session token; again is a 404', async () => {
    const user = await invite(a, 'new@inviting.test');
    const token = await mailedToken('new@inviting.test');
    expect(token.startsWith(`${a.tenantId}.`)).toBe(true);

    // Only a digest is stored.
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute(`select token_hash, expires_at from user_invitation where tenant_id = ? and user_id = ?`, [
        a.tenantId,
        user.id,
      ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(token.split('.')[1]);
    const days = (new Date(rows[0].expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // An INVITED user cannot use the service yet.
    const res = await accept(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: user.id, status: 'ACTIVE', tokenType: 'Bearer' });
    const session = new Client(server.baseUrl, res.body.token);
    expect((await session.get('/access-control/my-access')).status).toBe(200);
    expect(await statusOf(user.id)).toBe('ACTIVE');

    expectErrorBody(await accept(token), 404);
  });

  it("another tenant's id in a token, an unknown or malformed token, all answer the same 404", async () => {
    await invite(a, 'probe@inviting.test');
    const token = await mailedToken('probe@inviting.test');
    const secret = token.split('.')[1];
    for (const probe of [`${b.tenantId}.${secret}`, `${a.tenantId}.${'x'.repeat(43)}`, 'nonsense', '']) {
      const res = await accept(probe);
      expectErrorBody(res, 404);
      expect(res.body.detail).toBe('no such invitation: the link is unknown, used or expired');
    }
    // Nobody was activated, in either tenant; the real token still works.
    expect((await accept(token)).status).toBe(200);
  });

  it('inviting again replaces the token; an ACTIVE user is not invited (409); an expired token is a 404', async () => {
    const user = await invite(a, 'again@inviting.test');
    const first = await mailedToken('again@inviting.test');
    const again = await a.client.post(`/users/${user.id}/invite`, {});
    expect(again.status).toBe(200);
    const second = await mailedToken('again@inviting.test', 2);
    expect(second).not.toBe(first);
    expectErrorBody(await accept(first), 404);

    await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `update user_invitation set expires_at = now() - interval '1 second' where tenant_id = ? and user_id = ?`,
        [a.tenantId, user.id],
      );
    expectErrorBody(await accept(second), 404);
    expect(await statusOf(user.id)).toBe('INVITED');

    // Set INVITED again by an update: a fresh invitation that works.
    const updated = await a.client.graphql(
      `mutation($id: ID!) { updateUser(id: $id, input: { status: INVITED }) { status } }`,
      { id: user.id },
    );
    expect(updated.body.data.updateUser.status).toBe('INVITED');
    const third = await mailedToken('again@inviting.test', 3);
    expect((await accept(third)).status).toBe(200);
    expectErrorBody(await a.client.post(`/users/${user.id}/invite`, {}), 409);
  });

  it('a user created without status is ACTIVE and gets no invitation; other statuses are refused at create', async () => {
    const res = await createUser(a, { email: 'plain@inviting.test' });
    expect(res.body.data.createUser.status).toBe('ACTIVE');
    const odd = await createUser(a, { email: 'odd@inviting.test', status: 'SUSPENDED' });
    expect(odd.body.errors?.[0].message).toContain('a new user is ACTIVE or INVITED');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to('plain@inviting.test')).toHaveLength(0);
  });
});
