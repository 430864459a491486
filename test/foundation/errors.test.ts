import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';

describe('errors in the documented body', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Errors');
  });
  afterAll(() => server.close());

  it('400 for malformed JSON, wrong types, and bodies of the wrong shape', async () => {
    expectErrorBody(
      await a.client.post('/concepts', '{"name": ', { 'content-type': 'application/json' }),
      400,
    );
    expectErrorBody(await a.client.post('/tax-percentages', { percentage: 'ten' }), 400);
    expectErrorBody(await a.client.post('/tax-percentages', { percentage: null }), 400);
    expectErrorBody(await a.client.post('/tax-percentages', [1, 2]), 400);
    expectErrorBody(await a.client.post('/tax-percentages', 'just a string'), 400);
    expectErrorBody(await a.client.post('/tax-percentages', { percentage: 1e309 }), 400);
    expectErrorBody(await a.client.post('/tax-percentages'), 400);
    const res = await a.client.post('/concepts', { name: 'x', buildingType: 42 });
    expectErrorBody(res, 400);
    expect(res.body.detail).toContain('buildingType');
  });

  it('413 for a body over 1 MiB, 415 for a body that is not JSON', async () => {
    expectErrorBody(await a.client.post('/concepts', { name: 'x'.repeat(1024 * 1024 + 10) }), 413);
    expectErrorBody(
      await a.client.post('/concepts', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
    );
    expectErrorBody(
      await a.client.post('/concepts', '<concept/>', { 'content-type': 'application/xml' }),
      415,
    );
  });

  it('404 with the error body for unknown paths, inside and outside the API', async () => {
    expectErrorBody(await a.client.get('/no/such/thing'), 404);
    expectErrorBody(await a.client.request('PUT', '/concepts/find-all'), 404);
    const outside = await fetch(`${server.baseUrl}/nothing-here`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual(
      expect.objectContaining({ title: 'Not Found', detail: expect.any(String), time: expect.any(String) }),
    );
  });

  it('400 for bad query parameters, naming them', async () => {
    for (const [path, name] of [
      ['/concepts/page?pageSize=abc', 'pageSize'],
      ['/concepts/page?pageNumber=1.5', 'pageNumber'],
      ['/concepts/page?pageSize=5000', 'pageSize'],
      ['/concepts/page?direction=UP', 'direction'],
      ['/concepts/page?sortBy=password', 'password'],
    ]) {
      const res = await a.client.get(path);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(name);
    }
    const many = Array.from(
      { length: 1001 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    ).join(',');
    expectErrorBody(await a.client.get(`/concepts/find?ids=${many}`), 400);
  });

  it('errors carry the request id, given or generated', async () => {
    const res = await a.client.get('/concepts/find/nope', { 'x-request-id': 'req-123' });
    expect(res.headers.get('x-request-id')).toBe('req-123');
    expect(res.body.requestId).toBe('req-123');
    const generated = await a.client.get('/concepts/find/nope');
    expect(generated.body.requestId).toBe(generated.headers.get('x-request-id'));
  });

  it('health and readiness', async () => {
    expect((await a.client.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await a.client.get('/readyz')).body).toEqual({ status: 'ready' });
  });
});
