/**
 * @module docs.test
 * The docs: the raw document in both formats; `/docs`, a page of our own whose files all come
 * from this origin under a CSP that allows nothing else; and, in real Chromium against a real
 * mock, every operation of the document listed with its parameters' kinds of fact, the demo key
 * filled in and used, every operation's example request sent from the page and answered 200, and
 * a hostile document shown as text.
 * Without /usr/bin/chromium (or $CHROMIUM_PATH) the browser tests are skipped with a warning, or
 * fail when CI_REQUIRE_CHROMIUM=1.
 */
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { readSpecText } from '../../contract/index.js';
import { listen, type Listening } from '../../net/listen.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../../testing/chromium.js';
import { mountDocs } from './docs.js';
import type { Examples } from '../examples.js';
import { startMockServer, type RunningServer } from '../listen.js';

const specText = readSpecText();
const API_BASE = 'http://127.0.0.1:4010/web-data/v1';
const DEMO_KEY = 'demo-production-key';
const PAGE_TIMEOUT_MS = 20_000;
const hasChromium = chromiumAvailable('src/server/docs-page/docs.test.ts');

function docsApp(options: { demoKey?: string } = { demoKey: DEMO_KEY }): Hono {
  const app = new Hono();
  mountDocs(app, { specText, apiBaseUrl: API_BASE, ...options });
  return app;
}

describe('mountDocs', () => {
  it('serves the raw document as YAML, byte for byte', async () => {
    const res = await docsApp().request('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await res.text()).toBe(specText);
  });

  it('serves the same document as JSON', async () => {
    const res = await docsApp().request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(parseYaml(specText));
  });

  it('serves a page whose script and style come from this origin, under a CSP that allows only it', async () => {
    const res = await docsApp().request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    for (const directive of ['script-src', 'style-src', 'connect-src'])
      expect(csp).toContain(`${directive} 'self';`);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' type="module" src="/docs/assets/docs.js"']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(?!\/docs\/)/);
    // Nothing of the options is written into the HTML: the script reads it as data.
    expect(html).not.toContain(DEMO_KEY);
    expect(html).not.toContain(API_BASE);
  });

  it('gives the page its settings: the document with examples when there are any, the base URL and the demo key', async () => {
    const config = await (await docsApp().request('/docs/config.json')).json();
    expect(config).toEqual({ document: '/openapi.json', apiBaseUrl: API_BASE, demoKey: DEMO_KEY });
    const app = new Hono();
    mountDocs(app, { specText, apiBaseUrl: API_BASE, examples: {} });
    expect((await (await app.request('/docs/config.json')).json()).document).toBe(
      '/docs/openapi.json',
    );
  });

  it('leaves the key empty when no demo key is given', async () => {
    const config = await (await docsApp({}).request('/docs/config.json')).json();
    expect(config.demoKey).toBeNull();
  });

  it('serves the script and the style sheet with their types, not to be sniffed', async () => {
    const app = docsApp();
    for (const [path, type] of [
      ['/docs/assets/docs.js', /^text\/javascript/],
      ['/docs/assets/docs.css', /^text\/css/],
    ] as const) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(type);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('writes strings into the page only as text: the script has no HTML sink and no eval', () => {
    const script = readFileSync(new URL('./page.js', import.meta.url), 'utf8');
    expect(script).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(/,
    );
  });

  it('refuses an empty document', () => {
    expect(() => mountDocs(new Hono(), { specText: ' ', apiBaseUrl: API_BASE })).toThrow(
      /specText/,
    );
  });
});

/** Opens `/docs` and waits until the script has listed the operations; records what it requested. */
async function openDocs(browser: Browser, origin: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const requested: string[] = [];
  const failed: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('response', (response) => {
    // The browser asks for /favicon.ico on its own; the mock has none.
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(error.message));
  await page.goto(`${origin}/docs`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: PAGE_TIMEOUT_MS });
  return { page, requested, failed, violations };
}

/** Clicks an operation's "Send" and returns the status the page shows, and the line it shows. */
async function send(page: Page, operationId: string) {
  const section = page.locator(`section[data-operation-id="${operationId}"]`);
  const status = section.locator('.result-status');
  await status.evaluate((node) => delete (node as HTMLElement).dataset.status);
  await section.locator('button.send').click();
  await section
    .locator('.result-status[data-status]')
    .waitFor({ timeout: PAGE_TIMEOUT_MS, state: 'attached' });
  return {
    status: await status.getAttribute('data-status'),
    line: (await status.textContent()) ?? '',
    body: (await section.locator('.result-body').textContent()) ?? '',
  };
}

describe.runIf(hasChromium)('the /docs page in Chromium', () => {
  let browser: Browser;
  let mock: RunningServer;

  beforeAll(async () => {
    [mock, browser] = await Promise.all([
      // The unreleased release: every operation of the document, the HEAD and the file download too.
      startMockServer({ apiVersion: 'unreleased' }),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('lists every operation with its method, path, summary and its parameters with their kinds of fact', async () => {
    const { page, requested, failed, violations } = await openDocs(browser, mock.origin);
    try {
      const { operations } = mock.app.state.contract;
      const listed = await page
        .locator('section.operation')
        .evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.operationId));
      expect(listed.sort()).toEqual(operations.map((op) => op.operationId).sort());
      for (const op of operations) {
        const section = page.locator(`section[data-operation-id="${op.operationId}"]`);
        expect(await section.locator('h3 .method').textContent()).toBe(op.method.toUpperCase());
        expect(await section.locator('h3 .path').textContent()).toBe(op.path);
        expect(await section.locator('h3 .summary').textContent()).toBe(op.summary);
        expect(await section.locator('.meta .kind').textContent(), op.operationId).toBe(op.source);
        // Name and kind of each parameter, as the contract reads them from the document.
        const rows = await section
          .locator('table.parameters tbody tr')
          .evaluateAll((trs: HTMLTableRowElement[]) =>
            trs.map((tr) => [
              tr.cells[0].textContent,
              tr.cells[1].textContent,
              tr.cells[4].textContent,
            ]),
          );
        expect(rows, op.operationId).toEqual(op.parameters.map((p) => [p.name, p.in, p.source]));
      }
    } finally {
      await page.close();
    }
    expect(requested.filter((url) => !url.startsWith(`${mock.origin}/`))).toEqual([]);
    expect(failed).toEqual([]);
    expect(violations).toEqual([]);
  });

  it("fills in the demo key, and every operation's example request sent from the page is answered 200 and shown", async () => {
    const examples = (await (await fetch(`${mock.origin}/examples.json`)).json()) as Examples;
    const { page, violations } = await openDocs(browser, mock.origin);
    try {
      expect(await page.inputValue('#api-key')).toBe(examples.keys.byPurpose.fullAccess?.key);
      expect(await page.textContent('#key-header')).toBe('x-api-key');
      for (const [operationId, example] of Object.entries(examples.operations)) {
        const shown = await send(page, operationId);
        expect(shown.status, `${operationId}: ${shown.line}`).toBe('200');
        expect(shown.line).toContain(`${example.method} /web-data/v1${example.path}`);
        expect(shown.body.length, operationId).toBeGreaterThan(0);
      }
      const list = await send(page, 'listProducts');
      expect(JSON.parse(list.body)).toMatchObject({ data: expect.any(Array) });
    } finally {
      await page.close();
    }
    expect(violations).toEqual([]);
  });

  it('sends the key the field holds: another key, another answer', async () => {
    const { page } = await openDocs(browser, mock.origin);
    try {
      await page.fill('#api-key', 'not-a-key-of-this-mock');
      const shown = await send(page, 'listProducts');
      expect(shown.status).toBe('401');
      expect(JSON.parse(shown.body)).toHaveProperty('error');
    } finally {
      await page.close();
    }
  });

  describe('over a hostile document', () => {
    const HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">';
    const PROSE =
      'Sort by `wwwUpdateDate` (`desc,asc`); see [the guide](https://example.com/g), [bad](javascript:document.body.dataset.pwned=1) and <b>x</b>';
    let served: Listening;

    beforeAll(async () => {
      const document = parseYaml(specText);
      document.paths['/products'].get.summary = HOSTILE;
      document.paths['/products'].get.description =
        `</p><script>document.body.dataset.pwned=1</script>`;
      document.paths['/packages'].get.description = PROSE;
      document.tags[0].description = HOSTILE;
      document.info.title = HOSTILE;
      // References to nothing: a cycle and a malformed pointer.
      document['x-loop'] = { $ref: '#/x-loop' };
      document.paths['/products'].get.parameters.push(
        { $ref: '#/x-loop' },
        { $ref: '#/components/parameters/%E0%A4%A' },
      );
      const app = new Hono();
      mountDocs(app, {
        specText: stringifyYaml(document),
        apiBaseUrl: '/web-data/v1',
        demoKey: `"><script>document.body.dataset.pwned=1</script>`,
      });
      served = await listen((request) => app.fetch(request), { port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await served?.close();
    });

    it('shows every string as text, runs none of it, and survives references to nothing', async () => {
      const { page } = await openDocs(browser, served.origin);
      try {
        const section = page.locator('section[data-operation-id="listProducts"]');
        expect(await section.locator('h3 .summary').textContent()).toBe(HOSTILE);
        expect(await page.textContent('#title')).toContain(HOSTILE);
        expect(await page.inputValue('#api-key')).toBe(
          `"><script>document.body.dataset.pwned=1</script>`,
        );
        expect(await page.locator('img').count()).toBe(0);
        expect(await page.locator('main script').count()).toBe(0);
        expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
      } finally {
        await page.close();
      }
    });

    it("renders a description's inline code and http(s) links, and nothing else, as elements", async () => {
      const { page } = await openDocs(browser, served.origin);
      try {
        const p = page.locator('section[data-operation-id="listPackages"] p.text').first();
        expect(await p.locator('code').allTextContents()).toEqual(['wwwUpdateDate', 'desc,asc']);
        const links = await p
          .locator('a')
          .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
        expect(links).toEqual([['the guide', 'https://example.com/g']]);
        expect(await p.textContent()).toContain(
          '[bad](javascript:document.body.dataset.pwned=1) and <b>x</b>',
        );
        expect(await p.locator('b').count()).toBe(0);
      } finally {
        await page.close();
      }
    });
  });
});
