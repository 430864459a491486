import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectPushToken(p: any) {
  expect(Object.keys(p).sort()).toEqual(
    [
      'id',
      'appVersion',
      'deviceName',
      'token',
      'userId',
      'tenantId',
      'platform',
      'created',
      'lastUsed',
      'createdBy',
      'updated',
      'updatedBy',
    ].sort(),
  );
  expect(p.id).toMatch(UUID);
  expect(p.created).toMatch(ISO);
  expect(p.lastUsed).toMatch(ISO);
}

function expectSettings(s: any) {
  expect(Object.keys(s).sort()).toEqual(
    [
      'id',
      'userId',
      'digestFrequency',
      'disabledScopes',
      'enabledCategories',
      'inAppNotificationsEnabled',
      'pushNotificationsEnabled',
      'emailNotificationsEnabled',
      'tenantId',
      'created',
      'createdBy',
      'updated',
      'updatedBy',
    ].sort(),
  );
}

describe('Push tokens and notification settings', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Push');
  });
  afterAll(() => server.close());

  it('POST /notifications/push-tokens registers a device: 201, Location, every field', async () => {
    const u = await a.userWith([]);
    const res = await u.client.post('/notifications/push-tokens', {
      platform: 'IOS',
      token: 'tok-1',
      deviceName: 'Phone',
      appVersion: '1.2.3',
    });
    expect(res.status).toBe(201);
    expectPushToken(res.body);
    expect(res.body).toMatchObject({
      platform: 'IOS',
      token: 'tok-1',
      deviceName: 'Phone',
      appVersion: '1.2.3',
      userId: u.userId,
      tenantId: a.tenantId,
    });
    expect(res.headers.get('location')).toBe(`/api/v1/notifications/push-tokens/${res.body.id}`);
    const again = await u.client.get(`/notifications/push-tokens/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body.token).toBe('tok-1');
    const minimal = await u.client.post('/notifications/push-tokens', {
      platform: 'ANDROID',
      token: 'tok-min',
    });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ deviceName: null, appVersion: null });
    expectErrorBody(
      await u.client.post('/notifications/push-tokens', { platform: 'PAGER', token: 'x' }),
      400,
    );
    expectErrorBody(await u.client.post('/notifications/push-tokens', { platform: 'IOS' }), 400);
    expectErrorBody(await u.client.post('/notifications/push-tokens', { platform: 'IOS', token: '' }), 400);
  });

  it('registering a known token is an upsert: it moves to the caller and lastUsed advances', async () => {
    const u = await a.userWith([]);
    const v = await a.userWith([]);
    const first = (
      await u.client.post('/notifications/push-tokens', { platform: 'ANDROID', token: 'shared' })
    ).body;
    await new Promise((r) => setTimeout(r, 5));
    const second = await v.client.post('/notifications/push-tokens', {
      platform: 'ANDROID',
      token: 'shared',
      deviceName: 'Tablet',
    });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.id);
    expect(second.body.userId).toBe(v.userId);
    expect(second.body.deviceName).toBe('Tablet');
    expect(new Date(second.body.lastUsed).getTime()).toBeGreaterThan(new Date(first.lastUsed).getTime());
    expectErrorBody(await u.client.get(`/notifications/push-tokens/${first.id}`), 404);
    const mine = await v.client.graphql('{ myPushTokens { token } }');
    expect(mine.body.data!.myPushTokens).toEqual([{ token: 'shared' }]);
  });

  it('DELETE /notifications/push-tokens forgets the caller’s device: 204; not held is 404', async () => {
    const u = await a.userWith([]);
    const v = await a.userWith([]);
    const t = (await u.client.post('/notifications/push-tokens', { platform: 'IOS', token: 'gone-soon' }))
      .body;
    expectErrorBody(await v.client.delete('/notifications/push-tokens', { token: 'gone-soon' }), 404);
    expect((await u.client.get(`/notifications/push-tokens/${t.id}`)).status).toBe(200);
    const res = await u.client.delete('/notifications/push-tokens', { token: 'gone-soon' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectErrorBody(await u.client.get(`/notifications/push-tokens/${t.id}`), 404);
    expectErrorBody(await u.client.delete('/notifications/push-tokens', { token: 'gone-soon' }), 404);
    expectErrorBody(await u.client.delete('/notifications/push-tokens', {}), 400);

    // The device's history (the administrator's audit log): who registered and removed it, never its token.
    const history = await a.client.get(`/audit-log?recordType=PushToken&recordId=${t.id}`);
    expect(history.body.content.map((e: any) => [e.type, e.userId])).toEqual([
      ['DELETE', u.userId],
      ['CREATE', u.userId],
    ]);
    expect(history.text).not.toContain('gone-soon');
  });

  it('changes to notification settings keep a history', async () => {
    const u = await a.userWith([]);
    expect(
      (await u.client.put('/notifications/settings/me', { pushNotificationsEnabled: false })).status,
    ).toBe(200);
    expect(
      (await u.client.put('/notifications/settings/me', { pushNotificationsEnabled: true })).status,
    ).toBe(200);
    const history = await a.client.get(`/audit-log?recordType=NotificationSettings&actorId=${u.userId}`);
    // Made with the defaults on the first write, then changed twice.
    expect(history.body.content.map((e: any) => e.type)).toEqual(['UPDATE', 'UPDATE', 'CREATE']);
    expect(history.body.content[0].changes).toEqual([
      expect.objectContaining({ field: 'pushNotificationsEnabled', old: false, new: true }),
    ]);
  });

  it('tokens of another tenant are out of reach', async () => {
    const u = await a.userWith([]);
    const t = (await u.client.post('/notifications/push-tokens', { platform: 'IOS', token: 'tenant-a' }))
      .body;
    const b = await server.tenant('PushB');
    expectErrorBody(await b.client.get(`/notifications/push-tokens/${t.id}`), 404);
    expectErrorBody(await b.client.delete('/notifications/push-tokens', { token: 'tenant-a' }), 404);
    // The same device token registered in another tenant is a separate record.
    const inB = await b.client.post('/notifications/push-tokens', { platform: 'IOS', token: 'tenant-a' });
    expect(inB.status).toBe(201);
    expect(inB.body.id).not.toBe(t.id);
    expect((await u.client.get(`/notifications/push-tokens/${t.id}`)).body.userId).toBe(u.userId);
  });

  it('GET /notifications/settings/me answers the defaults on first read, then the same record', async () => {
    const u = await a.userWith([]);
    const res = await u.client.get('/notifications/settings/me');
    expect(res.status).toBe(200);
    expectSettings(res.body);
    expect(res.body).toMatchObject({
      userId: u.userId,
      digestFrequency: 'OFF',
      disabledScopes: [],
      enabledCategories: ['ERP', 'CRM', 'HR', 'SYSTEM'],
      inAppNotificationsEnabled: true,
      pushNotificationsEnabled: true,
    });
    expect((await u.client.get('/notifications/settings/me')).body.id).toBe(res.body.id);
  });

  it('PUT /notifications/settings/me changes the fields given and validates them', async () => {
    const u = await a.userWith([]);
    const v = await a.userWith([]);
    const res = await u.client.put('/notifications/settings/me', {
      digestFrequency: 'WEEKLY',
      disabledScopes: ['invoice.overdue', 'invoice.overdue'],
      enabledCategories: ['ERP'],
      inAppNotificationsEnabled: true,
      pushNotificationsEnabled: false,
      userId: v.userId,
    });
    expect(res.status).toBe(200);
    expectSettings(res.body);
    expect(res.body).toMatchObject({
      userId: u.userId,
      digestFrequency: 'WEEKLY',
      disabledScopes: ['invoice.overdue'],
      enabledCategories: ['ERP'],
      inAppNotificationsEnabled: true,
      pushNotificationsEnabled: false,
    });
    expect((await u.client.get('/notifications/settings/me')).body).toEqual(res.body);
    // Another user's settings are untouched.
    expect((await v.client.get('/notifications/settings/me')).body.digestFrequency).toBe('OFF');
    const bad = await u.client.put('/notifications/settings/me', { disabledScopes: ['made.up'] });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('made.up');
    expectErrorBody(await u.client.put('/notifications/settings/me', { digestFrequency: 'HOURLY' }), 400);
    expectErrorBody(await u.client.put('/notifications/settings/me', { enabledCategories: ['SPACE'] }), 400);
    expect((await u.client.get('/notifications/settings/me')).body.disabledScopes).toEqual([
      'invoice.overdue',
    ]);
  });

  it('GET /notifications/settings/scopes lists the catalog', async () => {
    const u = await a.userWith([]);
    const res = await u.client.get('/notifications/settings/scopes');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(4);
    for (const s of res.body) {
      expect(Object.keys(s).sort()).toEqual(['category', 'label', 'scope']);
      expect(['ERP', 'CRM', 'HR', 'SYSTEM']).toContain(s.category);
    }
    expect(res.body.map((s: any) => s.scope)).toEqual(
      expect.arrayContaining(['invoice.overdue', 'lead.assigned']),
    );
    expect(new Set(res.body.map((s: any) => s.scope)).size).toBe(res.body.length);
  });
});
