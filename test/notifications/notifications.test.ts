import { randomUUID } from 'node:crypto';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody, type Client } from '../support/http';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every documented Notification field, both names of the read pair, and the record's own. */
function expectNotification(n: any) {
  expect(Object.keys(n).sort()).toEqual(
    [
      'id',
      'actionUrl',
      'body',
      'scope',
      'sender',
      'title',
      'userId',
      'category',
      'notificationType',
      'emailSent',
      'emailSentAt',
      'isRead',
      'read',
      'metadata',
      'created',
      'createdBy',
      'updated',
      'updatedBy',
      'tenantId',
      'events',
    ].sort(),
  );
  expect(n.id).toMatch(UUID);
  expect(n.userId).toMatch(UUID);
  expect(n.read).toBe(n.isRead);
  expect(n.emailSent).toBe(false);
  expect(n.emailSentAt).toBeNull();
  expect(n.created).toMatch(ISO);
}

describe('Notifications', () => {
  let server: TestServer;
  let a: TestTenant;
  let sender: { client: Client; email: string; userId: string };
  let alice: { client: Client; email: string; userId: string };
  let bob: { client: Client; email: string; userId: string };

  const send = (to: string, extra: Record<string, unknown> = {}) =>
    sender.client.post('/notifications', {
      title: 'Hello',
      body: 'Body text',
      category: 'CRM',
      notificationType: 'ALERT',
      sender: 'crm-bot',
      username: to,
      ...extra,
    });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Notify');
    sender = await a.userWith(['CREATE_NOTIFICATIONS']);
    alice = await a.userWith([]);
    bob = await a.userWith([]);
  });
  afterAll(() => server.close());

  it('POST /notifications creates one for the named user: 201, Location, every field', async () => {
    const res = await send(alice.email.toUpperCase(), {
      scope: 'lead.assigned',
      actionUrl: '/crm/leads/1',
      metadata: { leadId: 'L-1', score: 3 },
      tenantId: randomUUID(),
    });
    expect(res.status).toBe(201);
    expectNotification(res.body);
    expect(res.body).toMatchObject({
      userId: alice.userId,
      tenantId: a.tenantId,
      title: 'Hello',
      body: 'Body text',
      category: 'CRM',
      notificationType: 'ALERT',
      sender: 'crm-bot',
      scope: 'lead.assigned',
      actionUrl: '/crm/leads/1',
      metadata: { leadId: 'L-1', score: 3 },
      read: false,
      isRead: false,
    });
    expect(res.body.events.map((e: any) => e.type)).toEqual(['CREATE']);
    expect(res.headers.get('location')).toBe(`/api/v1/notifications/find/${res.body.id}`);
    const mine = await alice.client.get(`/notifications/find/${res.body.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(res.body);
    // The sender does not see the recipient's notification.
    expectErrorBody(await sender.client.get(`/notifications/find/${res.body.id}`), 404);
  });

  it('POST /notifications: defaults, validation, unknown recipient and permission', async () => {
    const minimal = await sender.client.post('/notifications', { title: 'Min', username: bob.email });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({
      category: 'SYSTEM',
      notificationType: 'INFO',
      sender: sender.email,
      body: null,
      scope: null,
      actionUrl: null,
      metadata: null,
    });
    expectErrorBody(await send('nobody@example.test'), 404);
    expectErrorBody(await send('not-an-email'), 404);
    for (const [extra, field] of [
      [{ category: 'SPACE' }, 'category'],
      [{ notificationType: 'SHOUT' }, 'notificationType'],
      [{ scope: 'no.such.scope' }, 'scope'],
      [{ title: '' }, 'title'],
      [{ metadata: [1, 2] }, 'metadata'],
    ] as const) {
      const res = await send(bob.email, extra);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    expectErrorBody(await sender.client.post('/notifications', { title: 'x' }), 400);
    expectErrorBody(await alice.client.post('/notifications', { title: 'x', username: bob.email }), 403);
    const other = await server.tenant('Elsewhere');
    expectErrorBody(await other.client.post('/notifications', { title: 'x', username: alice.email }), 404);
  });

  it('GET /notifications/me pages the caller’s own, newest first, by category', async () => {
    const t = await server.tenant('Feed');
    const s = await t.userWith(['CREATE_NOTIFICATIONS']);
    const u = await t.userWith([]);
    const v = await t.userWith([]);
    for (const [title, category] of [
      ['one', 'CRM'],
      ['two', 'HR'],
      ['three', 'CRM'],
    ])
      await s.client.post('/notifications', { title, category, username: u.email });
    await s.client.post('/notifications', { title: 'for v', username: v.email });
    const res = await u.client.get('/notifications/me');
    expect(res.status).toBe(200);
    expect(res.body.content.map((n: any) => n.title)).toEqual(['three', 'two', 'one']);
    expect(res.body).toMatchObject({ totalElements: 3, number: 0, size: 20, first: true, last: true });
    expect(res.body.sort).toEqual({ empty: false, sorted: true, unsorted: false });
    for (const n of res.body.content) expectNotification(n);
    const crm = await u.client.get('/notifications/me?category=CRM&pageNumber=1&pageSize=1');
    expect(crm.body.content.map((n: any) => n.title)).toEqual(['one']);
    expect(crm.body).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, last: true });
    expectErrorBody(await u.client.get('/notifications/me?category=SPACE'), 400);
    expectErrorBody(await u.client.get('/notifications/me?pageSize=0'), 400);
    expectErrorBody(await u.client.get('/notifications/me?pageNumber=x'), 400);
    expect((await v.client.get('/notifications/me')).body.content.map((n: any) => n.title)).toEqual([
      'for v',
    ]);
  });

  it('unread-count, mark-read and mark-all-read act on the caller’s own only', async () => {
    const t = await server.tenant('Reading');
    const s = await t.userWith(['CREATE_NOTIFICATIONS']);
    const u = await t.userWith([]);
    const v = await t.userWith([]);
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c'])
      ids.push((await s.client.post('/notifications', { title, username: u.email })).body.id);
    const vs = (await s.client.post('/notifications', { title: 'v', username: v.email })).body.id;

    expect((await u.client.get('/notifications/unread-count')).body).toEqual({ count: 3 });
    const marked = await u.client.post('/notifications/mark-read', [ids[0], vs, 'garbage', randomUUID()]);
    expect(marked.status).toBe(200);
    expect(marked.body).toHaveLength(1);
    expectNotification(marked.body[0]);
    expect(marked.body[0]).toMatchObject({ id: ids[0], read: true, isRead: true });
    expect(marked.body[0].events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    // v's notification is untouched.
    expect((await v.client.get(`/notifications/find/${vs}`)).body.read).toBe(false);
    expect((await v.client.get('/notifications/unread-count')).body).toEqual({ count: 1 });
    expect((await u.client.get('/notifications/unread-count')).body).toEqual({ count: 2 });

    const all = await u.client.post('/notifications/mark-all-read');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ updated: 2 });
    expect((await u.client.get('/notifications/unread-count')).body).toEqual({ count: 0 });
    expect((await u.client.post('/notifications/mark-all-read')).body).toEqual({ updated: 0 });
    expect((await v.client.get('/notifications/unread-count')).body).toEqual({ count: 1 });
    expectErrorBody(await u.client.post('/notifications/mark-read', { ids: 'x' }), 400);
    expectErrorBody(await u.client.post('/notifications/mark-read'), 400);
  });

  it('family S1, S2, S3, S5, S10 and bulk delete see only the caller’s own notifications', async () => {
    const t = await server.tenant('Family');
    const s = await t.userWith(['CREATE_NOTIFICATIONS']);
    const u = await t.userWith([]);
    const v = await t.userWith([]);
    const mine = (await s.client.post('/notifications', { title: 'Mine alpha', username: u.email })).body;
    const mine2 = (await s.client.post('/notifications', { title: 'Mine beta', username: u.email })).body;
    const theirs = (await s.client.post('/notifications', { title: 'Theirs', username: v.email })).body;

    const found = await u.client.get(`/notifications/find?ids=${mine2.id},${theirs.id},${mine.id}`);
    expect(found.body.map((n: any) => n.id)).toEqual([mine2.id, mine.id]);
    expectErrorBody(await u.client.get('/notifications/find'), 400);
    const all = await u.client.get('/notifications/find-all');
    expect(all.body.map((n: any) => n.id)).toEqual([mine.id, mine2.id]);
    expectErrorBody(await u.client.get(`/notifications/find/${theirs.id}`), 404);
    expectErrorBody(await u.client.get('/notifications/find/nope'), 404);
    const page = await u.client.get('/notifications/page?search=beta&sortBy=title&direction=DESC');
    expect(page.body.content.map((n: any) => n.id)).toEqual([mine2.id]);
    expect(page.body.totalElements).toBe(1);
    // Every documented field sorts (docs/search.md); a name the record does not have is a 400.
    expect((await u.client.get('/notifications/page?sortBy=userId')).status).toBe(200);
    expectErrorBody(await u.client.get('/notifications/page?sortBy=password'), 400);

    // Deleting another user's notification: 404 for one, skipped in bulk; theirs survives.
    expectErrorBody(await u.client.delete(`/notifications/${theirs.id}`), 404);
    expect((await u.client.delete('/notifications', [theirs.id, mine2.id])).status).toBe(204);
    expect((await v.client.get(`/notifications/find/${theirs.id}`)).status).toBe(200);
    expectErrorBody(await u.client.get(`/notifications/find/${mine2.id}`), 404);
    const del = await u.client.delete(`/notifications/${mine.id}`);
    expect(del.status).toBe(204);
    expectErrorBody(await u.client.delete(`/notifications/${mine.id}`), 404);
    expect((await u.client.get('/notifications/find-all')).body).toEqual([]);
  });

  it('another tenant can neither read, list, count nor delete them', async () => {
    const n = (await send(alice.email, { title: 'Private' })).body;
    const other = await server.tenant('Intruder');
    expectErrorBody(await other.client.get(`/notifications/find/${n.id}`), 404);
    expect((await other.client.get(`/notifications/find?ids=${n.id}`)).body).toEqual([]);
    expect((await other.client.get('/notifications/find-all')).body).toEqual([]);
    expect((await other.client.get('/notifications/me')).body.totalElements).toBe(0);
    expectErrorBody(await other.client.delete(`/notifications/${n.id}`), 404);
    expect((await other.client.delete('/notifications', [n.id])).status).toBe(204);
    expect((await other.client.post('/notifications/mark-read', [n.id])).body).toEqual([]);
    const admin = await other.client.graphql(
      'query($u: ID) { userNotifications(userId: $u) { totalElements } }',
      { u: alice.userId },
    );
    expect(admin.body.data!.userNotifications.totalElements).toBe(0);
    expect((await alice.client.get(`/notifications/find/${n.id}`)).body.read).toBe(false);
  });

  it('the recipient’s settings keep notifications out of the feed; administrators still see them', async () => {
    const t = await server.tenant('Settings');
    const s = await t.userWith(['CREATE_NOTIFICATIONS']);
    const u = await t.userWith([]);
    const put = await u.client.put('/notifications/settings/me', {
      enabledCategories: ['CRM', 'SYSTEM'],
      disabledScopes: ['lead.status'],
    });
    expect(put.status).toBe(200);
    const blockedCategory = await s.client.post('/notifications', {
      title: 'hr',
      category: 'HR',
      username: u.email,
    });
    expect(blockedCategory.status).toBe(201);
    const blockedScope = await s.client.post('/notifications', {
      title: 'scope',
      category: 'CRM',
      scope: 'lead.status',
      username: u.email,
    });
    expect(blockedScope.status).toBe(201);
    await s.client.post('/notifications', {
      title: 'shown',
      category: 'CRM',
      scope: 'lead.assigned',
      username: u.email,
    });
    expect((await u.client.get('/notifications/me')).body.content.map((n: any) => n.title)).toEqual([
      'shown',
    ]);
    expect((await u.client.get('/notifications/unread-count')).body).toEqual({ count: 1 });
    expectErrorBody(await u.client.get(`/notifications/find/${blockedCategory.body.id}`), 404);

    const off = await u.client.put('/notifications/settings/me', { inAppNotificationsEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      inAppNotificationsEnabled: false,
      enabledCategories: ['CRM', 'SYSTEM'],
    });
    await s.client.post('/notifications', { title: 'muted', category: 'CRM', username: u.email });
    expect((await u.client.get('/notifications/me')).body.totalElements).toBe(1);

    const view = await t.client.graphql(
      'query($u: ID) { userNotifications(userId: $u) { totalElements content { title delivered } } }',
      { u: u.userId },
    );
    expect(view.body.data!.userNotifications.totalElements).toBe(4);
    expect(
      Object.fromEntries(view.body.data!.userNotifications.content.map((n: any) => [n.title, n.delivered])),
    ).toEqual({ hr: false, scope: false, shown: true, muted: false });
    const denied = await u.client.graphql('{ userNotifications { totalElements } }');
    expect(denied.body.errors![0].extensions!.code).toBe('FORBIDDEN');
  });

  it('every own-notification operation needs a credential', async () => {
    const anon = alice.client.withToken(undefined);
    for (const [method, path] of [
      ['GET', '/notifications/me'],
      ['GET', '/notifications/unread-count'],
      ['POST', '/notifications/mark-all-read'],
      ['GET', '/notifications/find-all'],
      ['GET', '/notifications/settings/me'],
      ['GET', '/notifications/settings/scopes'],
    ])
      expectErrorBody(await anon.request(method, path), 401);
  });
});
