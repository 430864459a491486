import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { restTable } from '../../src/rest/table';
import { describeInBrowser, launchChromium, offlinePage } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

type OpenApi = {
  tags: { name: string }[];
  paths: Record<string, Record<string, { tags: string[]; summary: string; operationId: string }>>;
  components: Record<string, Record<string, unknown>>;
};
const operationsOf = (doc: OpenApi) =>
  Object.values(doc.paths).flatMap((ops) =>
    Object.values(ops).map((o) => ({ tag: o.tags[0], summary: o.summary, operationId: o.operationId })),
  );

describeInBrowser('docs page test')('Docs pages at /api/v1/docs (headless chromium)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('the index lists every group and operation at once, offline, without errors', async () => {
    const { page, foreign, problems } = await offlinePage(browser, server.baseUrl);
    const started = Date.now();
    const response = await page.goto(`${server.baseUrl}/api/v1/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.getByRole('link', { name: restTable[0].summary }).first().waitFor();
    console.info(`docs index: first operation listed after ${Date.now() - started} ms`);
    const links = new Set((await page.locator('main a').allInnerTexts()).map((t) => t.trim()));
    const absent = restTable.filter((r) => r.summary && !links.has(r.summary)).map((r) => r.summary);
    expect(absent).toEqual([]);
    expect(await page.locator('body').innerText()).toContain('/concepts/find/{id}');
    // A group's description reads as prose: its code in <code>, no Markdown backticks left.
    expect(await page.locator('main').innerText()).not.toContain('`');
    expect(await page.locator('main p code').first().innerText()).toMatch(/^\/api\/v1\//);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("a group's page shows its operations at once, as plain HTML, offline, without errors", async () => {
    const { page, foreign, problems } = await offlinePage(browser, server.baseUrl);
    await page.goto(`${server.baseUrl}/api/v1/docs`, { waitUntil: 'load' });
    const first = restTable[0];
    // From the index to the first operation's section, as a reader would go.
    const started = Date.now();
    await page.getByRole('link', { name: first.summary }).first().click();
    const section = page.locator('section.operation', {
      has: page.locator('h2', { hasText: first.summary }),
    });
    await section.first().waitFor();
    // Measured and printed, not asserted: this machine is shared, so a time budget would be flaky.
    console.info(`docs group page: first operation visible after ${Date.now() - started} ms`);
    expect(await section.first().innerText()).toContain(first.path);
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as OpenApi;
    const group = operationsOf(doc).find((o) => o.summary === first.summary)!.tag;
    const expected = operationsOf(doc)
      .filter((o) => o.tag === group)
      .map((o) => o.summary);
    const headings = (await page.locator('section.operation h2').allInnerTexts()).map((t) => t.trim());
    expect(headings.sort()).toEqual([...expected].sort());
    // Every schema the page links to is written on it.
    const links = await page
      .locator('a[href^="#schema-"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice(1)));
    expect(links.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const id of new Set(links)) if ((await page.locator(`[id="${id}"]`).count()) !== 1) missing.push(id);
    expect(missing).toEqual([]);
    expect(await page.locator('script').count()).toBe(0);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("a group's interactive view renders its operations with Redoc, offline, without errors", async () => {
    const { page, foreign, problems } = await offlinePage(browser, server.baseUrl);
    const first = restTable[0];
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as OpenApi;
    const group = operationsOf(doc).find((o) => o.summary === first.summary)!.tag;
    const html = await (await fetch(`${server.baseUrl}/api/v1/docs`)).text();
    const slug = html.match(new RegExp(`<h2><a href="/api/v1/docs/([^"#]+)">${group}</a>`))![1];
    await page.goto(`${server.baseUrl}/api/v1/docs/${slug}`, { waitUntil: 'load' });
    await page.getByRole('link', { name: 'interactive view (Redoc)' }).click();
    await page.locator('h2', { hasText: first.summary }).first().waitFor({ timeout: 60_000 });
    const expected = operationsOf(doc)
      .filter((o) => o.tag === group)
      .map((o) => o.summary);
    const headings = (await page.locator('h2').allInnerTexts()).map((t) => t.trim());
    expect(headings.filter((h) => expected.includes(h)).sort()).toEqual([...expected].sort());
    const text = await page.locator('body').innerText();
    expect(text).toContain('Business management service');
    expect(text).toContain('Request samples');

    await page.screenshot({ path: path.join(os.tmpdir(), 'docs-page.png') });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("every group's document holds exactly its operations and every component they reach", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as OpenApi;
    const all = operationsOf(doc);
    const html = await (await fetch(`${server.baseUrl}/api/v1/docs`)).text();
    const slugs = [...html.matchAll(/<h2><a href="\/api\/v1\/docs\/([^"#]+)">/g)].map((m) => m[1]);
    expect(slugs).toHaveLength(doc.tags.length);
    const seen: string[] = [];
    for (const slug of slugs) {
      const res = await fetch(`${server.baseUrl}/api/v1/docs/${slug}/openapi.json`);
      expect([slug, res.status]).toEqual([slug, 200]);
      const part = (await res.json()) as OpenApi;
      const ops = operationsOf(part);
      expect(new Set(ops.map((o) => o.tag)).size).toBe(1);
      seen.push(...ops.map((o) => o.operationId));
      const refs = [...JSON.stringify(part).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
      const dangling = refs.filter(([, kind, name]) => !part.components[kind]?.[name]).map((m) => m[0]);
      expect([slug, dangling]).toEqual([slug, []]);
      expect(JSON.stringify(part).length).toBeLessThan(JSON.stringify(doc).length / 4);
      for (const view of ['', '/redoc']) {
        const page = await fetch(`${server.baseUrl}/api/v1/docs/${slug}${view}`);
        expect([slug, view, page.status]).toEqual([slug, view, 200]);
      }
    }
    expect(seen.sort()).toEqual(all.map((o) => o.operationId).sort());
  });

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
