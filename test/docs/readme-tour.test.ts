import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * The README's quick tour, run as written: its shell block is taken from the README itself, with
 * only the token and the address swapped for this test server's, and run by bash with curl. Every
 * curl must succeed, and each command must show what the README says it shows.
 */
const README = path.resolve(__dirname, '../../README.md');

function tourBlock(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('A quick tour'));
  const block = section?.match(/```sh\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md has no "A quick tour" section with a sh block');
  return block;
}

describe("the README's quick tour", () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Tour');
  });
  afterAll(() => server.close());

  it('runs as written and shows what it promises', async () => {
    const block = tourBlock();
    expect(block).toMatch(/^TOKEN=/m);
    const script = [
      'set -e',
      // Any HTTP error fails the command (and the script); nothing else is added to what curl does.
      'curl() { command curl --fail-with-body "$@"; }',
      block.replace(/^TOKEN=.*$/m, `TOKEN='${a.token}'`).replaceAll('http://127.0.0.1:4000', server.baseUrl),
    ].join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { timeout: 20_000 });

    // The create answers 201 with a Location pointing at the new concept.
    expect(stdout).toMatch(/^HTTP\/1\.1 201/m);
    expect(stdout).toMatch(/^location: \/api\/v1\/concepts\/find\/[0-9a-f-]{36}\r?$/im);
    // The page, both dynamic searches and the export find the records the tour made.
    expect(stdout).toMatch(/^\{"content":\[\{.*"name":"Row house"/m);
    const searches = stdout.split('\n').filter((l) => l.includes('"name":"Login page"'));
    expect(searches.length).toBeGreaterThanOrEqual(3); // the create, the GET and the POST search
    expect(stdout).toMatch(/^"[^\n]*,name,[^\n]*\\r\\n[^\n]*Login page/m); // CSV as a JSON string
    expect(stdout).toMatch(/^\{"count":\d+\}$/m);
    expect(stdout).toMatch(/"openapi":\s*"3\.1\.0"/);
    expect(stdout).toMatch(/^http_requests_total\{/m);
  });
});
