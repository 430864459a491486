import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';

/** API keys (docs/security.md): created within the creator's rights, a principal of their own. */
describe('API keys', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let creator: { userId: string; email: string; client: Client };
  const PERMS = [
    'READ_CONCEPTS',
    'CREATE_CONCEPTS',
    'READ_APIKEYS',
    'CREATE_APIKEYS',
    'UPDATE_APIKEYS',
    'DELETE_APIKEYS',
  ];
  const role = () => creator.email.split('@')[0];
  const as = (key: string) => new Client(server.baseUrl, key);

  beforeAll(async () => {
    server = await startServer();
    [a, b] = await Promise.all([server.tenant('Keys A'), server.tenant('Keys B')]);
    creator = await a.userWith(PERMS);
  });
  afterAll(() => server.close());

  async function create(body: Record<string, unknown> = {}) {
    const res = await creator.client.post('/api-keys', {
      name: 'integration',
      permissions: ['READ_CONCEPTS', 'CREATE_CONCEPTS'],
      ...body,
    });
    return res;
  }

  it('shows the key once, with its prefix; lists and reads never carry it', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^bms_[0-9a-f]{64}_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      name: 'integration',
      permissions: ['READ_CONCEPTS', 'CREATE_CONCEPTS'],
      creatorId: creator.userId,
    });
    expect(res.body.key.startsWith(res.body.hint)).toBe(true);
    const secret = res.body.key.split('_').slice(2).join('_');
    const list = await creator.client.get('/api-keys');
    expect(list.body.map((k: { id: string }) => k.id)).toContain(res.body.id);
    const one = await creator.client.get(`/api-keys/${res.body.id}`);
    for (const text of [list.text, one.text]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/secretHash|"key"/);
    }
    expectErrorBody(await b.client.get(`/api-keys/${res.body.id}`), 404);
  });

  it('acts as a principal of its own, within its permissions', async () => {
    const { body } = await create();
    const made = await as(body.key).post('/concepts', { name: 'by key', buildingType: 'ROW' });
    expect(made.status).toBe(201);
    expect(made.body.createdBy).toBe(`api-key:${body.id}`);
    expectErrorBody(await as(body.key).get('/api-keys'), 403);
    expectErrorBody(await as(body.key).post('/api-keys', { name: 'x', permissions: ['READ_CONCEPTS'] }), 403);
    const gql = await as(body.key).graphql('{ allConcepts { name } }');
    expect(gql.body.data.allConcepts.map((c: { name: string }) => c.name)).toContain('by key');
    await new Promise((r) => setTimeout(r, 300));
    const used = (await creator.client.get(`/api-keys/${body.id}`)).body.lastUsedAt;
    expect(Date.now() - Date.parse(used)).toBeLessThan(30_000);
  });

  it('refuses permissions the creator lacks, an expiry in the past and an unreachable scope; stores nothing', async () => {
    const before = (await creator.client.get('/api-keys')).body.length;
    const lacking = await create({ permissions: ['READ_CONCEPTS', 'DELETE_CONCEPTS'] });
    expectErrorBody(lacking, 403);
    expect(lacking.body.detail).toMatch(/DELETE_CONCEPTS/);
    const past = await create({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expectErrorBody(past, 400);
    expect(past.body.detail).toMatch(/expiresAt is in the past/);
    expectErrorBody(await create({ subsidiaryId: '00000000-0000-4000-8000-000000000001' }), 403);
    expectErrorBody(await create({ permissions: ['NOT_A_PERMISSION'] }), 400);
    expect((await creator.client.get('/api-keys')).body.length).toBe(before);
  });

  it('refuses an empty or blank name, over REST and GraphQL; stores nothing', async () => {
    const before = (await creator.client.get('/api-keys')).body.length;
    for (const name of ['', ' ', '\t \n']) {
      const res = await create({ name });
      expectErrorBody(res, 400);
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
    }
    const graphql = await creator.client.graphql(
      'mutation { createApiKey(input: { name: "   ", permissions: [READ_CONCEPTS] }) { id } }',
    );
    expect(graphql.body.errors?.[0]?.extensions?.status).toBe(400);
    expect(JSON.stringify(graphql.body.errors)).toMatch(/must not be blank/);
    expect((await creator.client.get('/api-keys')).body.length).toBe(before);
    // A name with words around its spaces is a name.
    expect((await create({ name: '  nightly import ' })).status).toBe(201);
    // Bidirectional controls are dropped from a stored name; a name of them alone is blank.
    expectErrorBody(await create({ name: '\u202e\u2066' }), 400);
    const reordered = await create({ name: 'exe.\u202egnp' });
    expect(reordered.status).toBe(201);
    expect(reordered.body.name).toBe('exe.gnp');
  });

  it('refuses a wrong secret, a forged tenant, rotated, revoked and expired keys', async () => {
    const { body } = await create();
    const [, ids, secret] = /^bms_([0-9a-f]{64})_(.+)$/.exec(body.key)!;
    const wrong = `bms_${ids}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const forged = `bms_${b.tenantId.replace(/-/g, '')}${ids.slice(32)}_${secret}`;
    for (const [key, detail] of [
      [wrong, /API key is invalid/],
      [forged, /API key is unknown/],
      ['bms_nonsense', /malformed/],
    ] as const) {
      const res = await as(key).get('/concepts/find-all');
      expectErrorBody(res, 401);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await as(body.key).get('/concepts/find-all')).status).toBe(200);
    const rotated = await creator.client.post(`/api-keys/${body.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(body.key);
    expectErrorBody(await as(body.key).get('/concepts/find-all'), 401);
    expect((await as(rotated.body.key).get('/concepts/find-all')).status).toBe(200);
    const revoked = await creator.client.post(`/api-keys/${body.id}/revoke`);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const res = await as(rotated.body.key).get('/concepts/find-all');
    expectErrorBody(res, 401);
    expect(res.body.detail).toMatch(/revoked/);

    const short = await create({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await as(short.body.key).get('/concepts/find-all')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await as(short.body.key).get('/concepts/find-all');
    expectErrorBody(expired, 401);
    expect(expired.body.detail).toMatch(/expired/);
  });

  it('never does more than its creator can at the moment of use', async () => {
    const { body } = await create();
    expect((await as(body.key).post('/concepts', { name: 'before', buildingType: 'ROW' })).status).toBe(201);
    // The creator's role loses CREATE_CONCEPTS: the key loses it on its next request.
    const changed = await a.client.put('/roles/tenant', {
      name: role(),
      permissions: {
        configuratorPermissions: ['READ_CONCEPTS'],
        appPermissions: PERMS.filter((p) => p.endsWith('APIKEYS')),
      },
    });
    expect(changed.status).toBeLessThan(300);
    expectErrorBody(await as(body.key).post('/concepts', { name: 'after', buildingType: 'ROW' }), 403);
    expect((await as(body.key).get('/concepts/find-all')).status).toBe(200);
    // The creator is disabled: the key is refused.
    const disabled = await a.client.graphql(
      `mutation { updateUser(id: "${creator.userId}", input: { status: DISABLED }) { status } }`,
    );
    expect(disabled.body.errors).toBeUndefined();
    const res = await as(body.key).get('/concepts/find-all');
    expectErrorBody(res, 401);
    expect(res.body.detail).toMatch(/not active/);
  });
});
