/**
 * @module proxy/browser.test
 * Real Chromium, real HTTP. A page on an allowed origin reads a product through the proxy (no key
 * in the page) and shows its title; the same page on another origin is refused. Then the mock's
 * `/docs` page lists the operations while loading nothing from outside this machine, and a
 * screenshot goes to reports/screenshots/docs.png.
 * Without /usr/bin/chromium (or $CHROMIUM_PATH) the tests are skipped with a warning, or fail when
 * CI_REQUIRE_CHROMIUM=1.
 */
import { Hono } from 'hono';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { startMockServer, type RunningServer } from '../server/listen.js';
import { startProxy, type RunningProxy } from './listen.js';
import { logSink, serveApp, type Served } from './testdata/servers.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../testing/chromium.js';

const KEY = 'demo-unlimited-key';
const here = dirname(fileURLToPath(import.meta.url));
const SCREENSHOT = join(here, '../../reports/screenshots/docs.png');
const PAGE_TIMEOUT_MS = 20_000;
const hasChromium = chromiumAvailable('src/proxy/browser.test.ts');

/** A static server for the test page; the proxy allows the first one's origin only. */
function pageApp(): Hono {
  const html = readFileSync(join(here, 'testdata/product-page.html'), 'utf8');
  const app = new Hono();
  app.get('/', (c) => c.html(html));
  return app;
}

describe.runIf(hasChromium)('in Chromium', () => {
  let browser: Browser;
  let mock: RunningServer;
  let proxy: RunningProxy;
  let allowedPage: Served;
  let otherPage: Served;
  const sink = logSink();

  beforeAll(async () => {
    [mock, allowedPage, otherPage, browser] = await Promise.all([
      startMockServer({ validateResponses: true }),
      serveApp(pageApp()),
      serveApp(pageApp()),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
    proxy = await startProxy({
      upstream: mock.url,
      apiKey: KEY,
      allowedOrigins: [allowedPage.origin],
      signalViolations: true,
      log: sink.log,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([proxy?.close(), mock?.close(), allowedPage?.close(), otherPage?.close()]);
  });

  async function productTitle(): Promise<{ id: string; title: string }> {
    const res = await fetch(`${mock.url}/products?limit=1`, { headers: { 'x-api-key': KEY } });
    const { data } = (await res.json()) as { data: { productId: string; title: string }[] };
    return { id: data[0].productId, title: data[0].title };
  }

  it('a page on an allowed origin reads a product through the proxy and can read the exposed headers', async () => {
    const product = await productTitle();
    const page = await browser.newPage();
    try {
      await page.goto(
        `${allowedPage.origin}/?api=${encodeURIComponent(proxy.url)}&id=${encodeURIComponent(product.id)}`,
      );
      await page.waitForFunction(
        () => document.getElementById('title')?.textContent !== 'loading',
        undefined,
        { timeout: PAGE_TIMEOUT_MS },
      );
      expect(await page.textContent('#title')).toBe(product.title);
      const headers = JSON.parse((await page.textContent('#headers')) ?? '{}') as {
        status: number;
        remaining: string | null;
        violations: string | null;
      };
      expect(headers.status).toBe(200);
      expect(Number(headers.remaining)).toBeGreaterThan(0);
      expect(headers.violations).toBe('0');
    } finally {
      await page.close();
    }
    expect(sink.lines.join('\n')).not.toContain(KEY);
  });

  it('the same page on another origin is refused', async () => {
    const product = await productTitle();
    const page = await browser.newPage();
    try {
      await page.goto(
        `${otherPage.origin}/?api=${encodeURIComponent(proxy.url)}&id=${encodeURIComponent(product.id)}`,
      );
      await page.waitForFunction(
        () => document.getElementById('title')?.textContent !== 'loading',
        undefined,
        { timeout: PAGE_TIMEOUT_MS },
      );
      expect(await page.textContent('#title')).toMatch(/^fetch failed/);
    } finally {
      await page.close();
    }
  });

  it('the docs page lists the operations, loads nothing from outside, and is captured', async () => {
    const { operations } = await loadContract();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      await page.goto(`${mock.origin}/docs`, { waitUntil: 'load' });
      for (const summary of [
        'List products',
        'Get one product',
        'Parametric search within a product',
        'List boards and kits',
      ]) {
        expect(
          operations.some((op) => op.summary === summary),
          `"${summary}" is a summary in the document`,
        ).toBe(true);
        await page
          .getByText(summary, { exact: true })
          .first()
          .waitFor({ timeout: PAGE_TIMEOUT_MS });
      }
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
    } finally {
      await page.close();
    }
    const outside = requested.filter(
      (url) => !url.startsWith(`${mock.origin}/`) && !/^(data|blob):/.test(url),
    );
    expect(outside).toEqual([]);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
