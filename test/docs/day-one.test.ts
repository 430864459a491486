import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * docs/day-one.md run as written: every sh block of the page, in order, as one bash script, with
 * only the token and the address swapped for this test server's. Each recipe must do what the
 * page says it does.
 */
const PAGE = path.resolve(__dirname, '../../docs/day-one.md');
// Some thirty requests and a dozen node processes, run one after another on a shared machine.
jest.setTimeout(180_000);

function recipes(): string {
  const blocks = [...readFileSync(PAGE, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length < 5) throw new Error('docs/day-one.md lost its recipes');
  return blocks.join('\n');
}

describe('the day-one recipes (docs/day-one.md)', () => {
  let server: TestServer;
  let a: TestTenant;
  const work = mkdtempSync(path.join(tmpdir(), 'bms-day-one-'));
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Day one');
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('run as written and do what the page says', async () => {
    const block = recipes();
    expect(block).toMatch(/^TOKEN=\$\(\.\/bms token /m);
    const script = [
      'set -e',
      block.replace(/^TOKEN=.*$/m, `TOKEN='${a.token}'`).replaceAll('http://127.0.0.1:4000', server.baseUrl),
    ].join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: work, timeout: 150_000 });
    const lines = stdout.split('\n');
    const json = (pattern: RegExp) => JSON.parse(lines.find((l) => pattern.test(l))!);

    // The profile and billing details, over REST and GraphQL.
    const patched = json(/^\{.*"name":"Acme Oy"/);
    expect(patched).toMatchObject({
      name: 'Acme Oy',
      domain: 'acme.test',
      billingInfo: { type: 'COMPANY', vatNumber: 'FI12345678', address: { city: 'Helsinki' } },
    });
    expect(json(/"updateTenant"/).data.updateTenant).toEqual({
      name: 'Acme Oy',
      billingInfo: { vatNumber: 'FI12345678' },
      settings: { defaultTimezone: 'Europe/Helsinki', defaultCurrency: 'EUR' },
    });
    // The logo: uploaded, named, and served.
    const logo = json(/^\{"data":\{"tenant"/).data.tenant.logo;
    expect(logo).toMatchObject({ blobId: expect.stringMatching(/^[0-9a-f-]{36}$/), width: 1, height: 1 });
    expect(logo.url).toBe(`/api/v1/files/${logo.blobId}`);
    const download = await fetch(`${server.baseUrl}${logo.url}`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(download.headers.get('content-type')).toBe('image/png');
    // Customers: created, listed, found, changed, deleted.
    expect(json(/"customerPage"/).data.customerPage.content).toEqual([
      expect.objectContaining({ name: 'Firma Oy', email: 'orders@firma.test' }),
    ]);
    expect(json(/"searchCustomers"/).data.searchCustomers).toEqual({
      totalElements: 1,
      content: [{ name: 'Firma Oy' }],
    });
    expect(json(/"updateCustomer"/).data.updateCustomer).toMatchObject({ phone: '+358 40 123 4567' });
    expect(json(/"deleteCustomer"/).data.deleteCustomer).toBe(true);
    // One feature changed twice, a stale change refused, deleted, its history read, restored.
    expect(json(/^\{.*"estimatedPoints":8/)).toMatchObject({ name: 'Checkout', estimatedPoints: 8 });
    expect(json(/^\{.*"name":"Checkout page"/)).toMatchObject({ estimatedPoints: 8 });
    expect(lines).toContain('409');
    expect(lines).toContain('204');
    const history = json(/^\{"content":\[\{.*"recordType":"Feature"/);
    expect(history.content.map((e: { type: string }) => e.type)).toEqual([
      'DELETE',
      'UPDATE',
      'UPDATE',
      'CREATE',
    ]);
    const restored = JSON.parse(lines.filter((l) => l.includes('"name":"Checkout page"')).pop()!);
    expect((await a.client.get(`/hr/features/find/${restored.id}`)).body.name).toBe('Checkout page');
  });
});
