import { chromium, type Browser, type Page } from 'playwright-core';
import { describeWithTool } from './debian-tools';

/**
 * Pages in a real browser: Debian's chromium driven by playwright-core, against the in-process
 * server. Every request that would leave the machine is refused and recorded, so a page is
 * shown to work offline.
 */
const CHROMIUM = '/usr/bin/chromium';

/** `describe`, or `describe.skip` with a warning where chromium is absent (never in CI). */
export function describeInBrowser(what: string): jest.Describe {
  return describeWithTool(CHROMIUM, 'chromium', what);
}

export function launchChromium(): Promise<Browser> {
  // Under scripts/test-at.sh the browser keeps the real clock: libfaketime in chromium stalls
  // its pages, and what a page shows does not depend on the date.
  const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...env } = process.env;
  return chromium.launch({
    executablePath: CHROMIUM,
    env,
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
}

export interface OfflinePage {
  page: Page;
  /** Requests to anywhere but the test server (refused). */
  foreign: string[];
  /** Page errors and console errors. */
  problems: string[];
}

/** A new page that may reach only `baseUrl` (and data:/blob: URLs). */
export async function offlinePage(browser: Browser, baseUrl: string): Promise<OfflinePage> {
  const page = await browser.newPage();
  const local = new URL(baseUrl).host;
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
  return { page, foreign, problems };
}
