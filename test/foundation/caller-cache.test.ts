import { authenticate } from '../../src/auth/authenticate';
import { CallerCache } from '../../src/auth/caller-cache';
import { signToken } from '../../src/auth/jwt';
import { endTenantTransaction } from '../../src/db/tenant-transaction';
import { countedTenantLimits } from '../support/tenant-counts';
import { holdCallerNotifications, startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { recordStatements } from '../support/statements';

/**
 * The caller's user and permissions are kept in memory per process (src/auth/caller-cache.ts),
 * yet every change to a user, a role or the tenant, made anywhere (another service process,
 * raw SQL), applies on the next request: database triggers bump the tenant's version, which
 * every request reads with its transaction's settings, and NOTIFY every process.
 */
describe('the caller cache', () => {
  let server: TestServer;
  /** A second service process on the same database, with a cache of its own. */
  let other: TestServer;
  let a: TestTenant;

  /** The tenant limiter's counts: how many times each tenant's requests were counted. */
  const tenantLimits = countedTenantLimits();

  beforeAll(async () => {
    server = await startServer({ http: { rateLimits: tenantLimits.rateLimits } });
    other = await startServer();
    a = await server.tenant('Caller cache');
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  /** How many concepts of the tenant bear `name` (raw SQL, outside any request). */
  const conceptsNamed = async (name: string) =>
    (
      await sql('select count(*)::int as n from concept where tenant_id = ? and name = ?', [a.tenantId, name])
    )[0].n as number;

  /** Raw SQL as the database's owner, outside any request (no tenant set). */
  const sql = (text: string, params: unknown[] = []) =>
    server.orm.em.getConnection().execute(text, params, 'all');

  /** A client of the other process for a caller (each test service signs with a secret of its own). */
  const onOther = (userId: string, email: string, tenantId = a.tenantId) =>
    new Client(other.baseUrl, signToken(other.jwt, { sub: userId, email, tenantId }));

  /** A reader of concepts and a client of it on each process. */
  async function reader() {
    const user = await a.userWith(['READ_CONCEPTS']);
    const here = user.client;
    const there = onOther(user.userId, user.email);
    // The notifications of the user's making would drop entries made before they arrive.
    await Promise.all([server.callersHeard(), other.callersHeard()]);
    // Both processes know the caller now.
    expect((await here.get('/concepts/find-all')).status).toBe(200);
    expect((await there.get('/concepts/find-all')).status).toBe(200);
    expect(server.app.live.callers?.peek(a.tenantId, user.userId)).toBeDefined();
    expect(other.app.live.callers?.peek(a.tenantId, user.userId)).toBeDefined();
    return { ...user, here, there };
  }

  /**
   * The statements sent, BEGIN aside, and the pool's one question whether the database takes
   * pipelines (src/db/orm-bypass/connection-transaction.ts), asked by whichever request comes first.
   */
  const statementsOf = (texts: string[]) =>
    texts.filter((s) => !/^\s*begin\s*$/i.test(s) && !/^select version\(\)/.test(s));

  it('sends one statement fewer for a caller it knows', async () => {
    const user = await a.userWith(['READ_CONCEPTS']);
    // The user's first sign-in writes lastLogin beside its request (src/auth/last-login.ts): made
    // here first, so that write is not among the statements counted.
    expect((await user.client.get('/concepts/find-all')).status).toBe(200);
    await server.signedIn(user.userId);
    // A notification of the user's making, arriving between the two requests, would drop the entry.
    await other.callersHeard();
    const log = recordStatements();
    try {
      // The other process has not seen this caller: its first request reads the user.
      const first = await onOther(user.userId, user.email).get('/concepts/find-all');
      expect(first.status).toBe(200);
      const uncached = statementsOf(log.take());
      const again = await onOther(user.userId, user.email).get('/concepts/find-all');
      expect(again.status).toBe(200);
      const cached = statementsOf(log.take());
      expect(uncached.some((s) => /from app_user/.test(s))).toBe(true);
      expect(cached.some((s) => /from app_user/.test(s))).toBe(false);
      expect(cached.length).toBe(uncached.length - 1);
    } finally {
      log.stop();
    }
  });

  it('applies a role change made with raw SQL on the next request, on every process', async () => {
    const user = await reader();
    const [{ roles }] = await sql('select roles from app_user where id = ?', [user.userId]);
    await sql(`update tenant_role set permissions = '{}'::jsonb where tenant_id = ? and name = ?`, [
      a.tenantId,
      (roles as string[])[0],
    ]);
    expectErrorBody(await user.here.get('/concepts/find-all'), 403);
    expectErrorBody(await user.there.get('/concepts/find-all'), 403);
  });

  it('applies a deactivation made by another process on the next request', async () => {
    const user = await reader();
    // The change goes through the other process's ORM and pool.
    await other.orm.em
      .getConnection()
      .execute(`update app_user set status = 'INACTIVE' where id = ?`, [user.userId]);
    expectErrorBody(await user.here.get('/concepts/find-all'), 401);
    expectErrorBody(await user.there.get('/concepts/find-all'), 401);
  });

  it('applies an access-list change made through the REST API of another process', async () => {
    const user = await reader();
    const me = `{ me { hasFullAccess projectAccess } }`;
    expect((await user.here.graphql(me)).body.data).toEqual({
      me: { hasFullAccess: false, projectAccess: [] },
    });
    const admin = onOther(a.adminId, a.adminEmail);
    const res = await admin.put(`/access-control/users/${user.email}/full-access`, { hasFullAccess: true });
    expect(res.status).toBeLessThan(300);
    expect((await user.here.graphql(me)).body.data).toEqual({
      me: { hasFullAccess: true, projectAccess: [] },
    });
    await sql(`update app_user set project_access = array['P-1'] where id = ?`, [user.userId]);
    expect((await user.here.graphql(me)).body.data).toEqual({
      me: { hasFullAccess: true, projectAccess: ['P-1'] },
    });
  });

  it('shuts callers out on the next request once their tenant is deactivated', async () => {
    const b = await server.tenant('Caller cache, deactivated');
    const there = onOther(b.adminId, b.adminEmail, b.tenantId);
    expect((await b.client.get('/concepts/find-all')).status).toBe(200);
    expect((await there.get('/concepts/find-all')).status).toBe(200);
    await sql('update tenant set active = false where id = ?', [b.tenantId]);
    expectErrorBody(await b.client.get('/concepts/find-all'), 401);
    expectErrorBody(await there.get('/concepts/find-all'), 401);
  });

  it('drops the entries of a changed tenant on every process when the notification arrives', async () => {
    const user = await reader();
    await sql(`update app_user set first_name = first_name where id = ?`, [user.userId]);
    // Notifications arrive after the commit, asynchronously: wait for them, however long it takes.
    while (
      server.app.live.callers?.peek(a.tenantId, user.userId) ||
      other.app.live.callers?.peek(a.tenantId, user.userId)
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await user.here.get('/concepts/find-all')).status).toBe(200);
  });

  it('never uses an entry read at an older version, even with no notification at all', async () => {
    // A cache no listener feeds: only the version read with the transaction's settings protects it.
    const callers = new CallerCache();
    const user = await a.userWith(['READ_CONCEPTS']);
    const header = `Bearer ${user.token}`;
    const once = async () => {
      const { em, caller } = await authenticate(server.orm.em, server.jwt, header, callers);
      await endTenantTransaction(em, false);
      return caller;
    };
    const first = await once();
    expect(first.permissions.has('READ_CONCEPTS')).toBe(true);
    const entry = callers.peek(a.tenantId, user.userId);
    expect(entry).toBeDefined();
    // A hit hands out the caller derived on the miss, frozen, since requests share it.
    const second = await once();
    expect(second).toBe(first);
    expect(
      Object.isFrozen(second) && Object.isFrozen(second.user) && Object.isFrozen(second.projectAccess),
    ).toBe(true);
    expect(callers.peek(a.tenantId, user.userId)).toBe(entry);
    const [{ roles }] = await sql('select roles from app_user where id = ?', [user.userId]);
    await sql(
      `update tenant_role set permissions = '{"configuratorPermissions": ["READ_TYPES"]}'::jsonb
       where tenant_id = ? and name = ?`,
      [a.tenantId, (roles as string[])[0]],
    );
    const after = await once();
    expect(after.permissions.has('READ_CONCEPTS')).toBe(false);
    expect(after.permissions.has('READ_TYPES')).toBe(true);
    expect(callers.peek(a.tenantId, user.userId)).not.toBe(entry);
  });

  /**
   * A REST request takes a remembered caller on trust and sends the transaction's settings with
   * its first statement; the version they read is checked before the transaction ends. Here
   * the service's cache is not fed (its notifications are held back), so only that check can
   * see a change.
   */
  describe('a REST request that ran on a caller that had changed', () => {
    holdCallerNotifications(() => server);

    const page = `{ conceptPage { content { id } } }`;

    const removeRole = async (userId: string) => {
      const [{ roles }] = await sql('select roles from app_user where id = ?', [userId]);
      await sql(`update tenant_role set permissions = '{}'::jsonb where tenant_id = ? and name = ?`, [
        a.tenantId,
        (roles as string[])[0],
      ]);
    };

    it('runs again with the caller read afresh: a read is refused', async () => {
      const user = await a.userWith(['READ_CONCEPTS']);
      expect((await user.client.get('/concepts/find-all')).status).toBe(200);
      const entry = server.app.live.callers!.peek(a.tenantId, user.userId);
      expect(entry).toBeDefined();
      await removeRole(user.userId);
      // Still remembered: no notification reached the cache.
      expect(server.app.live.callers!.peek(a.tenantId, user.userId)).toBe(entry);
      expectErrorBody(await user.client.get('/concepts/find-all'), 403);
      expect(server.app.live.callers!.peek(a.tenantId, user.userId)).not.toBe(entry);
    });

    it("counts a request that ran again once against the tenant's rate limit", async () => {
      const user = await a.userWith(['READ_CONCEPTS']);
      expect((await user.client.get('/concepts/find-all')).status).toBe(200);
      expect((await user.client.graphql(page)).body.errors).toBeUndefined();
      await removeRole(user.userId);
      const hits = () => tenantLimits.hits(a.tenantId);
      const before = hits();
      expectErrorBody(await user.client.get('/concepts/find-all'), 403);
      expect(hits()).toBe(before + 1);
      // The caller changes again; the GraphQL run goes again in the executor, with a context
      // made afresh.
      await sql(`update app_user set first_name = first_name where id = ?`, [user.userId]);
      expect((await user.client.graphql(page)).body.errors?.[0]?.extensions?.status).toBe(403);
      expect(hits()).toBe(before + 2);
    });

    it('keeps nothing a write did on the stale run', async () => {
      const user = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
      expect((await user.client.get('/concepts/find-all')).status).toBe(200);
      await removeRole(user.userId);
      const name = `Stale write ${user.userId}`;
      const res = await user.client.post('/concepts', { name });
      expectErrorBody(res, 403);
      expect(await conceptsNamed(name)).toBe(0);
    });

    it('a GraphQL query runs again too, and is refused', async () => {
      const user = await a.userWith(['READ_CONCEPTS']);
      expect((await user.client.graphql(page)).body.errors).toBeUndefined();
      await removeRole(user.userId);
      const read = await user.client.graphql(page);
      expect(read.body.errors?.[0]?.extensions?.status).toBe(403);
    });

    it('a GraphQL mutation on a caller that had changed keeps nothing', async () => {
      const user = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
      expect((await user.client.graphql(page)).body.errors).toBeUndefined();
      await removeRole(user.userId);
      const name = `Stale GraphQL write ${user.userId}`;
      const write = await user.client.graphql(
        `mutation($i: CreateConceptInput!) { createConcept(input: $i) { id } }`,
        { i: { name } },
      );
      expect(write.body.errors?.[0]?.extensions?.status).toBe(403);
      expect(await conceptsNamed(name)).toBe(0);
    });

    it('a GraphQL mutation that runs again on a caller still allowed keeps its write once', async () => {
      const user = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
      expect((await user.client.graphql(page)).body.errors).toBeUndefined();
      // The tenant's version moves, the caller's permissions do not.
      await sql(`update app_user set first_name = first_name where id = ?`, [user.userId]);
      const name = `Renewed GraphQL write ${user.userId}`;
      const write = await user.client.graphql(
        `mutation($i: CreateConceptInput!) { createConcept(input: $i) { id } }`,
        { i: { name } },
      );
      expect(write.body.errors).toBeUndefined();
      expect(await conceptsNamed(name)).toBe(1);
      expect((await user.client.get(`/concepts/find/${write.body.data.createConcept.id}`)).status).toBe(200);
    });

    it('a REST write that runs again on a caller still allowed is kept once', async () => {
      const user = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
      expect((await user.client.get('/concepts/find-all')).status).toBe(200);
      await sql(`update app_user set first_name = first_name where id = ?`, [user.userId]);
      const name = `Renewed REST write ${user.userId}`;
      expect((await user.client.post('/concepts', { name })).status).toBe(201);
      expect(await conceptsNamed(name)).toBe(1);
    });

    it('answers as usual when the caller had not changed', async () => {
      const user = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
      expect((await user.client.get('/concepts/find-all')).status).toBe(200);
      const name = `Fresh write ${user.userId}`;
      expect((await user.client.post('/concepts', { name })).status).toBe(201);
      expect(await conceptsNamed(name)).toBe(1);
    });
  });

  it('keeps tenants apart and stays within its bound', async () => {
    const callers = new CallerCache(2);
    const b = await server.tenant('Caller cache, other tenant');
    const tokens = [a.token, b.token, (await a.userWith([])).token];
    for (const token of tokens) {
      const { em } = await authenticate(server.orm.em, server.jwt, `Bearer ${token}`, callers);
      await endTenantTransaction(em, false);
    }
    expect(callers.size).toBe(2);
    // The least recently used (the first tenant's admin) went first.
    expect(callers.peek(a.tenantId, a.adminId)).toBeUndefined();
    expect(callers.peek(b.tenantId, b.adminId)).toBeDefined();
    // A token naming another tenant's user finds no one: the key and the read are per tenant.
    const forged = signToken(server.jwt, { sub: b.adminId, email: b.adminEmail, tenantId: a.tenantId });
    await expect(authenticate(server.orm.em, server.jwt, `Bearer ${forged}`, callers)).rejects.toMatchObject({
      status: 401,
    });
  });
});
