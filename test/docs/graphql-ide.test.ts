import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TOKEN_PLACEHOLDER } from '../../src/graphql/ide';
import { describeInBrowser, launchChromium, offlinePage } from '../support/browser';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/** Replaces the text of the CodeMirror editor inside `selector` (GraphiQL 3's editors). */
async function setEditor(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(`${selector} .CodeMirror`).first().waitFor();
  await page.evaluate(
    ([sel, value]) => {
      type Editor = { CodeMirror: { setValue(v: string): void } };
      const { document } = globalThis as unknown as { document: { querySelector(s: string): Editor } };
      const host = document.querySelector(`${sel} .CodeMirror`);
      host.CodeMirror.setValue(value);
    },
    [selector, text] as const,
  );
}

describeInBrowser('GraphQL IDE test')('GraphiQL at /graphql (headless chromium)', () => {
  let server: TestServer;
  let a: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Ide');
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('loads offline, shows the schema without a token, runs a query with the bearer header and shows the result', async () => {
    const { page, foreign, problems } = await offlinePage(browser, server.baseUrl);
    const response = await page.goto(`${server.baseUrl}/graphql`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");

    // The headers pane is open and holds the Authorization header to fill in.
    await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });
    const headersPane = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden)');
    await expect(headersPane.innerText()).resolves.toContain(TOKEN_PLACEHOLDER);

    // The schema loaded with no credential: the docs explorer lists Query.
    await page.getByRole('button', { name: /show documentation explorer/i }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();

    await setEditor(page, '.graphiql-query-editor', '{ me { email } }');
    await setEditor(
      page,
      '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
      JSON.stringify({ Authorization: `Bearer ${a.token}` }),
    );
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.result-window');
    await result.getByText(a.adminEmail).waitFor({ timeout: 15_000 });
    expect(await result.innerText()).toContain('"me"');

    await page.screenshot({ path: path.join(os.tmpdir(), 'graphql-ide.png') });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('without the token, the query shows the 401 error', async () => {
    const { page } = await offlinePage(browser, server.baseUrl);
    await page.goto(`${server.baseUrl}/graphql`, { waitUntil: 'load' });
    await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });
    await setEditor(page, '.graphiql-query-editor', '{ me { email } }');
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').getByText('UNAUTHENTICATED').waitFor({ timeout: 15_000 });
    await page.close();
  }, 90_000);

  it('says what the page is before its scripts run, and without JavaScript', async () => {
    // Scripts that have not arrived yet (a headless screenshot taken at once, a slow link).
    const waiting = await browser.newPage();
    await waiting.route('**/graphql/ide/*.js', (route) => route.abort());
    await waiting.goto(`${server.baseUrl}/graphql`, { waitUntil: 'load' });
    expect(await waiting.title()).toBe('Business management service: GraphQL');
    const shown = await waiting.locator('body').innerText();
    expect(shown).toMatch(/^GraphQL IDE\n/);
    expect(shown).toMatch(/This page runs GraphiQL, an editor for this service's GraphQL API/);
    expect(shown).not.toMatch(/needs JavaScript/);
    await waiting.close();

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/graphql`, { waitUntil: 'load' });
    const text = await page.locator('body').innerText();
    expect(text).toMatch(/^GraphQL IDE\n/);
    expect(text).toMatch(/GraphiQL needs JavaScript/);
    expect(text).toContain('POST /graphql');
    await page.screenshot({ path: path.join(os.tmpdir(), 'graphql-ide-noscript.png') });
    await context.close();
  }, 60_000);

  it('serves its files from node_modules; API calls, Sandbox and non-browser GETs are untouched', async () => {
    const html = await (
      await fetch(`${server.baseUrl}/graphql`, { headers: { accept: 'text/html' } })
    ).text();
    expect(html).not.toMatch(/https?:\/\//);
    const files = [...html.matchAll(/(?:src|href)="(\/graphql\/ide\/[^"]+)"/g)].map((m) => m[1]);
    expect(files).toHaveLength(5);
    files.push('/graphql/ide/schema.json');
    for (const file of files) {
      const res = await fetch(`${server.baseUrl}${file}`);
      expect([file, res.status]).toEqual([file, 200]);
      expect(res.headers.get('content-type')).toMatch(/javascript|css|json/);
    }
    const sandbox = await fetch(`${server.baseUrl}/graphql?ide=sandbox`, {
      headers: { accept: 'text/html' },
    });
    expect(sandbox.status).toBe(200);
    expect(await sandbox.text()).toMatch(/Apollo|sandbox/i);
    const api = await fetch(`${server.baseUrl}/graphql?query=${encodeURIComponent('{__typename}')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(await api.json()).toEqual({ data: { __typename: 'Query' } });
    expect((await fetch(`${server.baseUrl}/graphql/ide/nope.js`)).status).toBe(404);
  });

  it('is not served with introspection off (as in production)', async () => {
    const prod = await startServer({ http: { introspection: false } });
    try {
      const res = await fetch(`${prod.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
      expect(await res.text()).not.toContain('graphiql');
      expect((await fetch(`${prod.baseUrl}/graphql/ide/graphiql.min.js`)).status).not.toBe(200);
    } finally {
      await prod.close();
    }
  });
});
