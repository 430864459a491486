import { randomUUID } from 'node:crypto';
import { deleteExpiredKeys } from '../../src/jobs/idempotency-cleanup';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Idempotency keys in one process, on either database (the embedded one included): what is
 * stored, replayed, refused and cleaned up. test/deploy/two-processes.test.ts covers retries sent
 * to another process and a key held by a running request.
 */
describe('Idempotency-Key', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Idempotency');
  });
  afterAll(() => server.close());

  const count = async (tenantId: string, name: string) => {
    const rows = await server.orm.em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from concept where tenant_id = ? and name = ?', [
        tenantId,
        name,
      ]);
    return rows[0].n;
  };
  const storedKeys = (tenantId: string, key: string) =>
    server.orm.em
      .getConnection()
      .execute<{ user_id: string; status: number }[]>(
        'select user_id, status from idempotency_key where tenant_id = ? and key = ?',
        [tenantId, key],
      );

  it('runs a create once: the retry replays status, Location and body, marked as replayed', async () => {
    const key = randomUUID();
    const name = `Once ${key}`;
    const first = await a.client.post('/concepts', { name }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const retry = await a.client.post('/concepts', { name }, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.body).toEqual(first.body);
    expect(await count(a.tenantId, name)).toBe(1);
    expect(await storedKeys(a.tenantId, key)).toEqual([{ user_id: a.adminId, status: 201 }]);
  });

  it('refuses the key with a different request (422) and a malformed key (400)', async () => {
    const key = randomUUID();
    const first = await a.client.post('/concepts', { name: `First ${key}` }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expectErrorBody(
      await a.client.post('/concepts', { name: `Second ${key}` }, { 'idempotency-key': key }),
      422,
    );
    // Another operation with the same key (and body) is another request too.
    const patch = await a.client.patch(
      `/concepts/${first.body.id}`,
      { name: `First ${key}` },
      { 'idempotency-key': key },
    );
    expectErrorBody(patch, 422);
    expectErrorBody(await a.client.post('/concepts', { name: 'x' }, { 'idempotency-key': 'a b' }), 400);
    expectErrorBody(
      await a.client.post('/concepts', { name: 'x' }, { 'idempotency-key': 'k'.repeat(256) }),
      400,
    );
    expect(await count(a.tenantId, `Second ${key}`)).toBe(0);
  });

  it('replays a delete (204) rather than answering 404 the second time', async () => {
    const created = (await a.client.post('/concepts', { name: `Doomed ${randomUUID()}` })).body;
    const key = randomUUID();
    const first = await a.client.delete(`/concepts/${created.id}`, undefined, { 'idempotency-key': key });
    expect(first.status).toBe(204);
    const retry = await a.client.delete(`/concepts/${created.id}`, undefined, { 'idempotency-key': key });
    expect(retry.status).toBe(204);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expectErrorBody(await a.client.delete(`/concepts/${created.id}`), 404);
  });

  it('stores no error answer: a failed request with a key can be retried and then runs', async () => {
    const key = randomUUID();
    expectErrorBody(await a.client.post('/concepts', { name: 5 }, { 'idempotency-key': key }), 400);
    expect(await storedKeys(a.tenantId, key)).toEqual([]);
    const name = `After failure ${key}`;
    const ran = await a.client.post('/concepts', { name }, { 'idempotency-key': key });
    expect(ran.status).toBe(201);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys per caller and per tenant: the same key of another user or tenant runs anew', async () => {
    const key = randomUUID();
    const name = `Shared key ${key}`;
    const clerk = await a.userWith(['CREATE_CONCEPTS', 'READ_CONCEPTS']);
    const b = await server.tenant('Other');
    for (const client of [a.client, clerk.client, b.client]) {
      const res = await client.post('/concepts', { name }, { 'idempotency-key': key });
      expect(res.status).toBe(201);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await count(a.tenantId, name)).toBe(2);
    expect(await count(b.tenantId, name)).toBe(1);
  });

  it('GraphQL: a mutation with a key runs once and replays; a query ignores the key', async () => {
    const key = randomUUID();
    const body = {
      query: 'mutation($input: CreateConceptInput!) { createConcept(input: $input) { id name } }',
      variables: { input: { name: `GraphQL ${key}` } },
    };
    const first = await a.client.request('POST', '/graphql', body, { 'idempotency-key': key });
    expect(first.body.errors).toBeUndefined();
    const retry = await a.client.request('POST', '/graphql', body, { 'idempotency-key': key });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await count(a.tenantId, `GraphQL ${key}`)).toBe(1);
    // A mutation that failed stores nothing: its key then runs another request.
    const other = randomUUID();
    const bad = { ...body, variables: { input: { name: '' } } };
    const failed = await a.client.request('POST', '/graphql', bad, { 'idempotency-key': other });
    expect(failed.body.errors).toBeDefined();
    const again = await a.client.request('POST', '/graphql', body, { 'idempotency-key': other });
    expect(again.body.errors).toBeUndefined();
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await count(a.tenantId, `GraphQL ${key}`)).toBe(2);
    const query = await a.client.request(
      'POST',
      '/graphql',
      { query: '{ conceptPage(pageSize: 1) { totalElements } }' },
      {
        'idempotency-key': key,
      },
    );
    expect(query.status).toBe(200);
    expect(query.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key once it has expired: the clean-up deletes it and the key may be used again', async () => {
    const key = randomUUID();
    expect(
      (await a.client.post('/concepts', { name: `Old ${key}` }, { 'idempotency-key': key })).status,
    ).toBe(201);
    await server.orm.em
      .getConnection()
      .execute(
        `update idempotency_key set expires_at = now() - interval '1 second' where tenant_id = ? and key = ?`,
        [a.tenantId, key],
      );
    expect(await deleteExpiredKeys(server.orm)).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(a.tenantId, key)).toEqual([]);
    const reused = await a.client.post('/concepts', { name: `New ${key}` }, { 'idempotency-key': key });
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
  });
});
