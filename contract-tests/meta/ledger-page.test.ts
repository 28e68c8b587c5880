/**
 * @module meta/ledger-page.test
 * `web-data-evidence ledger` end to end over two nights, with profiles the contract suite itself
 * observed: night 1 against the real mock, night 2 against it behind a proxy that serves pages of
 * 25 where the document infers 10. Each night writes evidence.md, evidence.json and evidence.html;
 * night 2, given night 1's folder as history, shows the fact confirmed then contradicted
 * ("changed") in the page's history table, checked in real Chromium (nothing loaded from
 * elsewhere). Bad flags and files are one line and exit 2.
 * Without /usr/bin/chromium (or $CHROMIUM_PATH) the browser test is skipped with a warning, or
 * fails when CI_REQUIRE_CHROMIUM=1.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeProfile } from '../../src/evidence/index.js';
import { checkPagination } from '../../src/suite/checks/pagination.js';
import { runChecks, startTarget, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from '../../src/testing/chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'web-data-evidence.js');
const hasChromium = chromiumAvailable('contract-tests/meta/ledger-page.test.ts');

const pageOf25: Mutation = {
  request(req) {
    if (req.path === '/documents' && !req.query.has('limit')) req.query.set('limit', '25');
  },
};

/** Two suite runs and two spawned commands on a loaded machine (each spawn loads the document). */
const RUN_MS = 180_000;

let target: Target;
let dir: string;

/** The command as a user runs it; asynchronous, so the target in this process keeps answering. */
function ledger(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'ledger', ...args], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** One night: the suite's pagination checks on documents, its profile written as a run would. */
async function night(name: string, mutation: Mutation | undefined): Promise<string> {
  const { ctx } = await runChecks(target, [checkPagination], { family: 'documents' }, mutation);
  const folder = join(dir, 'runs', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'profile.json'), serializeProfile(ctx.profile));
  return join(folder, 'profile.json');
}

beforeAll(async () => {
  target = await startTarget();
  dir = mkdtempSync(join(tmpdir(), 'ledger-page-'));
});

afterAll(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('web-data-evidence ledger over two nights', () => {
  let html: string;

  it(
    'writes the page, the JSON and the patch; night 2 shows the inferred page size contradicted',
    async () => {
      const p1 = await night('2026-11-24', undefined);
      const first = await ledger(['--profile', p1, '-o', join(dir, 'runs', '2026-11-24')]);
      expect(first.code, first.err).toBe(0);
      const json1 = JSON.parse(
        readFileSync(join(dir, 'runs', '2026-11-24', 'evidence.json'), 'utf8'),
      );
      expect(json1.label).toBe('2026-11-24');
      expect(
        json1.facts.find((f: { id: string }) => f.id === 'listDocuments default ?limit').verdict,
      ).toBe('confirmed');
      expect(existsSync(join(dir, 'runs', '2026-11-24', 'openapi.patch'))).toBe(false);

      const p2 = await night('2026-11-25', pageOf25);
      const out = join(dir, 'runs', '2026-11-25');
      const second = await ledger(['--profile', p2, '--history', join(dir, 'runs'), '-o', out]);
      expect(second.code, second.err).toBe(0);
      const md = readFileSync(join(out, 'evidence.md'), 'utf8');
      expect(md).toMatch(/^# Evidence of `2026-11-25`: what the target was seen to do/);
      expect(md).toMatch(
        /\| `GET \/documents` \| `default` `\?limit` \| `10` \| `inferred` \| `full pages asked without limit held 25 records \(\d+ pages?\)` \| `GET \/documents[^`]*` \|/,
      );
      expect(md).toContain('```diff');
      expect(readFileSync(join(out, 'openapi.patch'), 'utf8')).toMatch(/^\+.*default: 25 }$/m);
      html = readFileSync(join(out, 'evidence.html'), 'utf8');
    },
    RUN_MS,
  );

  it.runIf(hasChromium)(
    'the page in Chromium: the history table has both nights, the fact confirmed then contradicted (changed)',
    async () => {
      expect(html).toBeDefined();
      const file = join(dir, 'runs', '2026-11-25', 'evidence.html');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        const requested: string[] = [];
        page.on('request', (r) => requested.push(r.url()));
        await page.goto(pathToFileURL(file).href);
        expect(await page.title()).toBe('Evidence of 2026-11-25');
        const heads = await page.locator('#history thead th').allTextContents();
        expect(heads).toEqual(['fact', '2026-11-24', '2026-11-25']);
        const row = page.locator('#history tr[data-fact="listDocuments default ?limit"]');
        const cells = row.locator('td');
        expect(await cells.count()).toBe(2);
        expect(await cells.nth(0).getAttribute('class')).toBe('confirmed');
        expect(await cells.nth(1).getAttribute('class')).toBe('contradicted changed');
        expect(await cells.nth(1).getAttribute('title')).toMatch(/held 25/);
        // Rendered visibly, not just present in the markup.
        expect(await row.isVisible()).toBe(true);
        expect(await page.locator('#n-contradicted').textContent()).toMatch(
          /^[1-9]\d* contradicted$/,
        );
        expect(await page.locator('#diff').textContent()).toContain('default: 25');
        expect(requested).toEqual([pathToFileURL(file).href]);
      } finally {
        await browser.close();
      }
    },
    RUN_MS,
  );

  it(
    'a missing flag, a file that is not a profile, or a bad number: one line naming it, exit 2',
    async () => {
      const missing = await ledger(['-o', dir]);
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(
        /^web-data-evidence: ledger needs --profile FILE \(a profile.json\)\n$/,
      );
      const notProfile = join(dir, 'not-a-profile.json');
      writeFileSync(notProfile, '{"format": "something else"}');
      const bad = await ledger(['--profile', notProfile, '-o', dir]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(`--profile ${notProfile}: not a profile`);
      const number = await ledger(['--profile', notProfile, '-o', dir, '--min-observations', 'x']);
      expect(number.code).toBe(2);
      expect(number.err).toMatch(/--min-observations must be a whole number >= 1 \(got "x"\)/);
    },
    RUN_MS,
  );
});
