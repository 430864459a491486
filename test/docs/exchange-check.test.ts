import { checkExchange, type Exchange } from '../support/openapi-exchange';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * The check every test's HTTP exchange goes through (test/support/openapi-exchange.ts) refuses
 * what differs from the published document: shown here on real exchanges, altered.
 */
describe('exchanges are held to the OpenAPI document', () => {
  let server: TestServer;
  let a: TestTenant;
  let created: Exchange;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Exchange');
    const res = await a.client.post('/concepts', { name: 'Checked', buildingType: 'ROW' });
    created = {
      method: 'POST',
      path: '/api/v1/concepts',
      query: '',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: { name: 'Checked', buildingType: 'ROW' },
      status: res.status,
      headers: res.headers,
      body: res.body,
    };
  });
  afterAll(() => server.close());

  const check = (x: Partial<Exchange>) => checkExchange(server.baseUrl, { ...created, ...x });

  it('passes the real exchange', async () => {
    await expect(check({})).resolves.toBeUndefined();
  });

  it('refuses a body that differs from the documented schema', async () => {
    const body = { ...(created.body as object), name: 42 };
    await expect(check({ body })).rejects.toThrow(/body does not match/);
  });

  it('refuses a status the operation does not document', async () => {
    await expect(check({ status: 202 })).rejects.toThrow(/not documented/);
  });

  it('refuses a success for a request the document does not accept', async () => {
    await expect(check({ requestBody: { name: 42 } })).rejects.toThrow(/refuses this request/);
  });

  it('refuses an undocumented path that answers anything but 404', async () => {
    await expect(check({ method: 'GET', path: '/api/v1/no-such-thing', status: 200 })).rejects.toThrow(
      /undocumented path/,
    );
  });

  it('refuses a content type the operation does not document', async () => {
    const headers = new Headers(created.headers);
    headers.set('content-type', 'text/plain');
    await expect(check({ headers })).rejects.toThrow(/content type/);
  });
});
