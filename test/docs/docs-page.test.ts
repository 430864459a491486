import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { restTable } from '../../src/rest/table';
import { startServer, type TestServer } from '../support/server';

/**
 * The docs page in a real browser: Debian's chromium driven by playwright-core, against the
 * in-process server. Every request that would leave the machine is refused, so the page is
 * shown to work offline.
 */
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) {
  throw new Error(
    `${CHROMIUM} is missing in CI: .ci/run installs Debian's chromium package before the tests`,
  );
}
if (!available) {
  console.warn(`docs page test skipped: ${CHROMIUM} is absent (apt-get install chromium to run it)`);
}

(available ? describe : describe.skip)('Docs page at /api/v1/docs (headless chromium)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the operations from the generated document, offline, without errors', async () => {
    const page = await browser.newPage();
    const local = new URL(server.baseUrl).host;
    const foreign: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || url.host === local) return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });

    const response = await page.goto(`${server.baseUrl}/api/v1/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");

    // Redoc renders each operation as a section headed by its summary, once the document is loaded.
    const first = restTable[0];
    await page.locator('h2', { hasText: first.summary }).first().waitFor({ timeout: 30_000 });
    const headings = new Set((await page.locator('h2').allInnerTexts()).map((t) => t.trim()));
    const absent = restTable.filter((r) => r.summary && !headings.has(r.summary)).map((r) => r.summary);
    expect(absent).toEqual([]);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Business management service');
    expect(text).toContain('/concepts/find/{id}');

    await page.screenshot({ path: path.join(os.tmpdir(), 'docs-page.png') });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('serves the Redoc bundle from node_modules and the page without a credential', async () => {
    const bundle = await fetch(`${server.baseUrl}/api/v1/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    const html = await fetch(`${server.baseUrl}/api/v1/docs`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(await html.text()).not.toMatch(/https?:\/\//);
  });
});
