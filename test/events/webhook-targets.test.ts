import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { postWebhook } from '../../src/events/http-post';
import { isPublicAddress, urlProblem } from '../../src/events/targets';

// Without WEBHOOK_ALLOW_PRIVATE_TARGETS, as in production.
delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;

describe('webhook targets', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Targets');
  }, 120_000);
  afterAll(() => server.close());

  it.each([
    'http://example.com/hook',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://100.64.0.1/hook',
    'https://user:pw@example.com/hook',
  ])('refuses %s at registration', async (url) => {
    expectErrorBody(await a.client.post('/webhooks', { url }), 400);
  });

  it('refuses private addresses again at delivery, after resolving the name', async () => {
    const outcome = await postWebhook('https://localhost:9/hook', {}, '{}', {
      timeoutMs: 1000,
      allowPrivate: false,
    });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/not a public address/);
    const literal = await postWebhook('https://127.0.0.1:9/hook', {}, '{}', {
      timeoutMs: 1000,
      allowPrivate: false,
    });
    expect(literal.error).toMatch(/refused/);
  });

  it('tells public addresses from the others', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '169.254.169.254', '::1', 'fe80::1', '0.0.0.0'])
      expect(isPublicAddress(a)).toBe(false);
    expect(urlProblem('https://93.184.216.34/hook', false)).toBeUndefined();
  });
});
