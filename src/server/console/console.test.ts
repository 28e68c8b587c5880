/**
 * @module console.test
 * The QA console (`/__mock/console`) in real Chromium against a mock on a port, through every step
 * of issue 39: sign in; arm a 500 on page 2 of listProducts from the form the document fills in
 * (offset offered, page not, 418 not); three requests seen in the journal within a second, the
 * second marked with the fault; a stub from a journal row, refused beside its line for
 * `images: "none"` and kept for `images: []`; a record edited and found in a list; a throttled
 * key's window reset by advancing the clock; reset. Hostile strings (user-agent, query, JSON body)
 * are shown as text, run nothing and load nothing (the CSP report endpoint stays silent); the
 * token is never in the URL, a cookie or any request but as the admin header. Each panel's
 * screenshot is written to reports/screenshots/console-*.png; with UPDATE_SCREENSHOTS=1 it goes
 * to docs/images/, which docs/qa.md shows (a plain run leaves the tracked images alone: Chromium's
 * bytes differ from run to run).
 * Without /usr/bin/chromium (or $CHROMIUM_PATH) the browser test is skipped with a warning, or
 * fails when CI_REQUIRE_CHROMIUM=1.
 */
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../../testing/chromium.js';
import { startMockServer, type RunningServer } from '../listen.js';

const TOKEN = 'console-admin-token-7f3a';
const KEY = 'demo-production-key';
const LOW_KEY = 'demo-low-tier-key';
const HOSTILE_UA = '<img src=x onerror=window.__pwned=1>';
const HOSTILE_QUERY = '</script><script>window.__pwned=2</script>';
const BIDI = 'abc\u202Egnp.exe';
const STEP_TIMEOUT_MS = 5000;
const PAGE_BUDGET_BYTES = 150 * 1024;
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/images' : 'reports/screenshots';
const shot = (name: string) => new URL(`../../../${SHOTS}/console-${name}.png`, import.meta.url);
const hasChromium = chromiumAvailable('src/server/console/console.test.ts');

describe.runIf(hasChromium)('the QA console in Chromium', () => {
  let browser: Browser;
  let mock: RunningServer;
  const seen: Request[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    [mock, browser] = await Promise.all([
      startMockServer({ adminToken: TOKEN }),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  const call = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${mock.url}${path}`, {
      ...init,
      headers: { 'x-api-key': init.key ?? KEY, ...(init.headers as Record<string, string>) },
    });
  const adminGet = async (path: string) =>
    (
      await fetch(`${mock.origin}/__mock${path}`, { headers: { 'x-mock-admin-token': TOKEN } })
    ).json();
  const tab = (page: Page, name: string) => page.click(`#tab-${name}`);
  const panelShot = (page: Page, name: string) =>
    page.locator(`#panel-${name}`).screenshot({ path: shot(name).pathname });

  it('serves a page and files within 150 KB, under a strict CSP with a report endpoint', async () => {
    const res = await fetch(`${mock.origin}/__mock/console`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'"])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).toContain('report-uri /__mock/console/csp-report');
    let bytes = (await res.arrayBuffer()).byteLength;
    for (const asset of ['console.js', 'console.css'])
      bytes += (await (await fetch(`${mock.origin}/__mock/console/assets/${asset}`)).arrayBuffer())
        .byteLength;
    expect(bytes).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
    // Everything else under /__mock still needs the token.
    expect((await fetch(`${mock.origin}/__mock/console/catalogue`)).status).toBe(401);
  });

  it('walks every step of issue 39, shows hostile strings as text, and keeps the token to its header', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('request', (r) => seen.push(r));
    page.on('console', (m) => {
      if (/Content Security Policy|error/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${mock.origin}/__mock/console`);
    await page.waitForSelector('body[data-ready="true"]');

    // Sign in: without a token the page says what to do.
    expect(await page.textContent('#status')).toBe('Not signed in.');
    expect(await page.textContent('#signin-help')).toContain('--admin-token');
    await page.locator('header').screenshot({ path: shot('signin').pathname });
    await page.fill('#token', 'not-the-token');
    await page.press('#token', 'Enter');
    await page.waitForFunction(() =>
      /refused/.test(document.getElementById('status')?.textContent ?? ''),
    );
    expect(await page.isHidden('#main')).toBe(true);
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    await page.waitForSelector('#main:not([hidden])');
    await page.waitForFunction(() => document.getElementById('live')?.textContent === 'live');

    // Every control has a label (or is a button with its text).
    const unlabelled = await page.evaluate(() =>
      Array.from(document.querySelectorAll('input, select, textarea'))
        .filter((c) => (c as HTMLInputElement).labels?.length === 0)
        .map((c) => c.id),
    );
    expect(unlabelled).toEqual([]);

    // Faults: the form offers listProducts' own parameters and statuses only.
    await tab(page, 'faults');
    await page.selectOption('#fault-operation', 'listProducts');
    expect(await page.locator('#fault-query-offset').count()).toBe(1);
    expect(await page.locator('#fault-query-page').count()).toBe(0);
    expect(await page.textContent('label[for="fault-query-offset"]')).toContain('page index');
    const statuses = await page
      .locator('#fault-status option')
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(statuses).toContain('500');
    expect(statuses).not.toContain('418');
    await page.fill('#fault-query-offset', '1');
    await page.selectOption('#fault-status', '500');
    await page.fill('#fault-count', '1');
    await page.click('#fault-arm');
    await page.waitForSelector('#armed tbody tr');
    expect(await page.textContent('#armed tbody tr')).toContain('status=500');
    await panelShot(page, 'faults');
    // A second fault, armed and disarmed from its row.
    await page.fill('#fault-query-offset', '7');
    await page.click('#fault-arm');
    await page.waitForFunction(() => document.querySelectorAll('#armed tbody tr').length === 2);
    await page.locator('#armed tbody tr', { hasText: '"offset":7' }).locator('button').click();
    await page.waitForFunction(() => document.querySelectorAll('#armed tbody tr').length === 1);
    expect((await adminGet('/faults')).armed.map((f: { match: unknown }) => f.match)).toEqual([
      { operationId: 'listProducts', query: { offset: 1 } },
    ]);

    // The journal, live: three requests, the second answered by the fault.
    await tab(page, 'journal');
    const answers = [];
    for (const offset of [0, 1, 2]) answers.push(await call(`/products?offset=${offset}`));
    expect(answers.map((r) => r.status)).toEqual([200, 500, 200]);
    const firstPage = (await answers[0].json()) as { data: { productId: string }[] };
    await page
      .waitForFunction(() => document.querySelectorAll('#journal tbody tr').length === 3, null, {
        timeout: 1000,
      })
      .catch(async (error: unknown) => {
        console.log(await page.textContent('#panel-journal'), await page.textContent('#status'));
        throw error;
      });
    const rows = await page.locator('#journal tbody tr').allTextContents();
    expect(rows[1]).toMatch(/offset=1.*500.*fault \(armed\): status=500/);
    expect(rows[0]).not.toContain('fault');
    await page.selectOption('#f-status', '5');
    expect(await page.locator('#journal tbody tr').count()).toBe(1);
    await page.selectOption('#f-status', '');
    await page.fill('#f-text', 'offset=2');
    expect(await page.locator('#journal tbody tr').allTextContents()).toEqual([
      expect.stringContaining('offset=2'),
    ]);
    await page.fill('#f-text', '');
    expect(await adminGet('/faults')).toEqual({ armed: [] });

    // Hostile strings in the user-agent, the query and a JSON body: text only.
    await call(`/products?category=${encodeURIComponent(HOSTILE_QUERY)}`, {
      headers: { 'user-agent': HOSTILE_UA },
    });
    await call('/product-parts/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyword: `${HOSTILE_UA}${HOSTILE_QUERY}${BIDI}` }),
    });
    await page.waitForFunction(() => document.querySelectorAll('#journal tbody tr').length === 5);
    await page.locator('#journal tbody tr').nth(1).click();
    const detail = (await page.textContent('#detail-json')) ?? '';
    expect(detail).toContain(HOSTILE_UA);
    expect(detail).toContain(HOSTILE_QUERY);
    // From the keyboard: the row's own button, focused and pressed.
    await page.locator('#journal tbody tr').nth(0).locator('button').focus();
    await page.keyboard.press('Enter');
    const bodyDetail = (await page.textContent('#detail-json')) ?? '';
    expect(bodyDetail).toContain('abc\\u{202E}gnp.exe');
    expect(bodyDetail).not.toContain('\u202E');
    expect(await page.textContent('#detail-curl')).not.toContain(KEY);
    await page.locator('#journal tbody tr').nth(1).locator('button').click();
    expect(await page.textContent('#detail-curl')).toContain('x-api-key: $API_KEY');
    await panelShot(page, 'journal');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#main img, #main script').count()).toBe(0);

    // Stubs from a journal row: refused beside its line for images "none", kept for [].
    const productId = firstPage.data[0].productId;
    await call(`/products/${encodeURIComponent(productId)}`);
    await page.waitForFunction(() => document.querySelectorAll('#journal tbody tr').length === 6);
    await page.locator('#journal tbody tr').nth(0).locator('button').click();
    await page.click('#stub-this');
    await page.waitForSelector('#stub-verdict[data-ok="true"]').catch(async (e: unknown) => {
      console.log(await page.textContent('#panel-stubs'));
      throw e;
    });
    const answer = JSON.parse(await page.inputValue('#stub-json')) as Record<string, unknown>;
    await page.fill('#stub-json', JSON.stringify({ ...answer, images: 'none' }, null, 2));
    await page.waitForSelector('#stub-verdict[data-ok="false"]');
    const finding = page.locator('#stub-lines li.finding[data-pointer="/images"]');
    expect(await finding.textContent()).toMatch(/array/);
    // Beside the line it names: the line just before it is the "images" member.
    const line = Number(await finding.getAttribute('data-line'));
    expect(await page.textContent(`#stub-lines li[data-line="${line}"]:not(.finding)`)).toContain(
      '"images": "none"',
    );
    await panelShot(page, 'stubs');
    expect(await adminGet('/stubs')).toEqual({ stubs: [] }); // the dry run stored nothing
    await page.fill('#stub-json', JSON.stringify({ ...answer, images: [] }, null, 2));
    await page.waitForSelector('#stub-verdict[data-ok="true"]');
    await page.click('#stub-add');
    await page.waitForSelector('#stubs tbody tr');
    const stubbed = (await (await call(`/products/${encodeURIComponent(productId)}`)).json()) as {
      images: unknown;
    };
    expect(stubbed.images).toEqual([]);
    await page.locator('#stubs tbody tr button').click();
    await page.waitForFunction(() => document.querySelectorAll('#stubs tbody tr').length === 0);
    expect(await adminGet('/stubs')).toEqual({ stubs: [] });
    const unstubbed = (await (await call(`/products/${encodeURIComponent(productId)}`)).json()) as {
      images: unknown[];
    };
    expect(unstubbed.images.length).toBeGreaterThan(0);

    // Records: find, check live, put; the edit is in force in a list request.
    await tab(page, 'records');
    await page.selectOption('#record-family', 'products');
    const editedId = firstPage.data[1].productId;
    await page.fill('#record-id', editedId);
    await page.click('#record-find button[type=submit]');
    await page.waitForSelector('#record-verdict[data-ok="true"]');
    const record = JSON.parse(await page.inputValue('#record-json')) as Record<string, unknown>;
    await page.fill('#record-json', JSON.stringify({ ...record, title: 5 }, null, 2));
    await page.waitForSelector('#record-lines li.finding[data-pointer="/title"]');
    await page.fill(
      '#record-json',
      JSON.stringify({ ...record, title: 'Edited in the console' }, null, 2),
    );
    await page.waitForSelector('#record-verdict[data-ok="true"]');
    await page.click('#record-put');
    await page.waitForSelector('#edits tbody tr');
    await panelShot(page, 'records');
    const listed = (await (await call('/products?offset=0')).json()) as {
      data: { productId: string; title: string }[];
    };
    expect(listed.data.find((p) => p.productId === editedId)?.title).toBe('Edited in the console');

    // Clock and limits: a throttled key, its Retry-After, and its window reset by the clock.
    let refused: Response | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const res = await call('/packages', { key: LOW_KEY });
      await res.arrayBuffer();
      if (res.status === 429) refused = res;
    }
    expect(refused?.status).toBe(429);
    const retryAfter = Number(refused?.headers.get('retry-after'));
    await tab(page, 'limits');
    const low = page.locator('#limits tbody tr[data-key="demo-low-tier"]');
    await page.waitForSelector('#limits tbody tr[data-key="demo-low-tier"][data-refused="true"]');
    const shown = Number(/Retry-After: (\d+)/.exec((await low.textContent()) ?? '')?.[1]);
    expect(Math.abs(shown - retryAfter)).toBeLessThanOrEqual(1);
    await panelShot(page, 'limits');
    await page.fill('#clock-seconds', '60');
    await page.click('#clock-form button[type=submit]');
    await page.waitForSelector('#limits tbody tr[data-key="demo-low-tier"][data-refused="false"]');
    expect(await low.textContent()).toContain('20 of 20 left');
    expect((await call('/packages', { key: LOW_KEY })).status).toBe(200);

    // Reset, behind a confirmation.
    await tab(page, 'reset');
    await page.click('#reset-open');
    await page.waitForSelector('#reset-dialog[open]');
    await page.screenshot({ path: shot('reset').pathname });
    await page.click('#reset-confirm');
    await page.waitForFunction(
      () => document.getElementById('reset-result')?.textContent === 'Everything was reset.',
    );
    expect(await adminGet('/stubs')).toEqual({ stubs: [] });
    expect(await adminGet('/records')).toEqual({ edits: [] });
    expect((await adminGet('/requests')).requests).toEqual([]);

    // The token: only ever the admin header of a same-origin call, and gone at sign-out.
    expect(await page.evaluate(() => sessionStorage.getItem('mockAdminToken'))).toBe(TOKEN);
    await page.click('#signout');
    await page.waitForFunction(
      () => document.getElementById('live')?.textContent === 'not connected',
    );
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(page.url()).not.toContain(TOKEN);
    expect(await context.cookies()).toEqual([]);
    const allHeaders = await Promise.all(seen.map((request) => request.allHeaders()));
    seen.forEach((request, i) => {
      expect(request.url().startsWith(`${mock.origin}/`), request.url()).toBe(true);
      expect(request.url()).not.toContain(TOKEN);
      expect(request.postData() ?? '').not.toContain(TOKEN);
      for (const [name, value] of Object.entries(allHeaders[i]))
        if (name !== 'x-mock-admin-token') expect(value, name).not.toContain(TOKEN);
      expect(request.url()).not.toMatch(/\/x$|csp-report/);
    });
    expect(seen.filter((r) => r.headers()['x-mock-admin-token'] === TOKEN).length).toBeGreaterThan(
      10,
    );
    expect(await adminGet('/console/csp-reports')).toEqual({ count: 0, reports: [] });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
    await context.close();
  }, 90_000);
  it("shows one scope's requests and controls when chosen, and the mock's own again when it ends", async () => {
    const made = await fetch(`${mock.origin}/__mock/scopes`, {
      method: 'POST',
      headers: { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' },
      body: '{}',
    });
    const scope = (await made.json()) as { id: string; apiKey: string; keyName: string };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${mock.origin}/__mock/console`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    await page.waitForSelector(`#view option[value="${scope.id}"]`, { state: 'attached' });
    expect(await page.textContent(`#view option[value="${scope.id}"]`)).toContain(scope.keyName);

    // The scope's journal shows its own request alone; the mock's own shows the other.
    await call('/products?limit=1&offset=3', { key: scope.apiKey });
    await call('/products?limit=1&offset=4');
    await page.selectOption('#view', scope.id);
    await page.waitForFunction(() => document.querySelectorAll('#journal tbody tr').length === 1);
    expect(await page.textContent('#journal tbody tr')).toMatch(
      new RegExp(`offset=3.*${scope.keyName}`),
    );
    await page.screenshot({ path: shot('scope').pathname });

    // A fault armed from the form is the scope's, not the mock's own.
    await tab(page, 'faults');
    await page.selectOption('#fault-operation', 'listPackages');
    await page.selectOption('#fault-status', '500');
    await page.click('#fault-arm');
    await page.waitForSelector('#armed tbody tr');
    expect((await adminGet(`/scopes/${scope.id}/faults`)).armed).toHaveLength(1);
    expect(await adminGet('/faults')).toEqual({ armed: [] });

    // Reset says what it resets, and resets the scope alone.
    await tab(page, 'reset');
    await page.click('#reset-open');
    expect(await page.textContent('#reset-question')).toBe(`Reset scope-${scope.id}?`);
    await page.click('#reset-confirm');
    await page.waitForFunction(
      () => document.getElementById('reset-result')?.textContent === 'The scope was reset.',
    );
    expect((await adminGet(`/scopes/${scope.id}/faults`)).armed).toEqual([]);
    expect((await adminGet('/requests')).requests).not.toEqual([]);

    // The scope ends while shown: the console says so and shows the mock's own controls.
    await fetch(`${mock.origin}/__mock/scopes/${scope.id}`, {
      method: 'DELETE',
      headers: { 'x-mock-admin-token': TOKEN },
    });
    await tab(page, 'faults');
    await page.waitForFunction(() =>
      /ended/.test(document.getElementById('view-status')?.textContent ?? ''),
    );
    expect(await page.inputValue('#view')).toBe('');
    expect(await page.locator(`#view option[value="${scope.id}"]`).count()).toBe(0);
    await tab(page, 'journal');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('#journal tbody tr')).some((tr) =>
        tr.textContent?.includes('offset=4'),
      ),
    );
    expect(await page.textContent('#journal tbody')).not.toContain('offset=3');
    await context.close();
  }, 60_000);
});
