/**
 * @module meta/cli.test
 * The command end to end, as a nightly job runs it against staging: `web-data-contract <base-url>`
 * (a live target: no Prefer, no provoked 429) on a real mock behind a plain pass-through proxy that
 * does not forward `Host` (absolute hrefs name the mock's origin) and sends no rate-limit headers,
 * with a key full of characters that encode (the proxy swaps it for the mock's demo key, and echoes
 * it into bodies and URLs). A conforming night exits 0; the next night, with two rules broken and
 * the first night's report as `--baseline`, exits 1 and its summary leads with what is new. No
 * form of the key appears in the console, the JSON report, the Markdown summary or the JUnit XML.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/suite/support/options.js';
import { mapHrefs, onList, startTarget, type Body, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'web-data-contract.js');
/** The distinctive core survives every encoding; the rest needs percent-, JSON- and XML-escaping. */
const CORE = 's3cr3tPROBE7731';
const KEY = `${CORE} "q"\\/+&=%<x>`;
/** A full suite run against a live target, twice in one test. */
const RUN_MS = 150_000;

interface Night {
  code: number | null;
  console: string;
  json: string;
  markdown: string;
  junit: string;
  profile: string;
}

let target: Target;
let dir: string;
let xrefNumbers: string;

/** The proxy in front of the mock: the key swapped for the mock's, no rate-limit headers, the key echoed in an undeclared field. */
function conforming(extra: Mutation = {}): Mutation {
  const echo = onList('/packages', (b: Body) => b.data?.forEach((r) => void (r.echoedKey = KEY)));
  return {
    request(req) {
      if (req.headers['x-api-key'] === KEY) req.headers['x-api-key'] = DEFAULTS.mockApiKey;
    },
    reply: extra.reply,
    response(res, req) {
      res.headers.delete('x-ratelimit-limit');
      res.headers.delete('x-ratelimit-remaining');
      echo.response!(res, req);
      extra.response?.(res, req);
    },
  };
}

/** Two rules broken, both carrying the key: an enum value, and an href (the key in its query) that answers 500. */
const broken: Mutation = {
  reply(req) {
    if (!req.query.has('echo')) return undefined;
    return {
      status: 500,
      headers: new Headers({ 'content-type': 'application/json' }),
      json: { error: `cannot serve ${KEY}` },
    };
  },
  response(res, req) {
    const body = res.json as Body | undefined;
    if (res.status !== 200 || !Array.isArray(body?.data) || !body.data[0]) return;
    // Only the default page, so the two findings are not lost among twenty of the same.
    if (req.path === '/boards-kits' && req.query.size === 0) body.data[0].boardKitType = KEY;
    if (req.path === '/packages') {
      let first = true;
      mapHrefs(body.data[0], (href) =>
        first ? ((first = false), `${href}?echo=${encodeURIComponent(KEY)}`) : href,
      );
    }
  },
};

function night(name: string, args: string[]): Promise<Night> {
  const reports = join(dir, name);
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONTRACT_') && k !== 'GITHUB_STEP_SUMMARY',
    ),
  );
  const child = spawn(
    process.execPath,
    [
      BIN,
      target.proxy.url,
      '--release',
      'unreleased',
      '--report-dir',
      reports,
      '--xref-numbers',
      xrefNumbers,
      ...args,
    ],
    {
      cwd: ROOT,
      // The mock behind the proxy is found as ours (its /examples.json): the 429 is not provoked here.
      env: { ...clean, CONTRACT_API_KEY: KEY, CONTRACT_PROVOKE_RATE_LIMIT: '0', NO_COLOR: '1' },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const read = (file: string) => readFileSync(join(reports, file), 'utf8');
      resolve({
        code,
        console: output,
        json: read('contract-report.json'),
        markdown: read('contract-summary.md'),
        junit: read('contract-junit.xml'),
        profile: read('profile.json'),
      });
    });
  });
}

/** Every form the key could take in the outputs: as sent, percent-encoded, JSON-escaped (once, twice), XML-escaped. */
function keyForms(): string[] {
  const xml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const forms = [
    KEY,
    encodeURIComponent(KEY),
    encodeURI(KEY),
    JSON.stringify(KEY).slice(1, -1),
    JSON.stringify(JSON.stringify(KEY)).slice(3, -3),
  ];
  return [...forms, ...forms.map(xml), CORE];
}

function expectNoKey(n: Night): void {
  for (const [where, text] of Object.entries({
    console: n.console,
    json: n.json,
    markdown: n.markdown,
    junit: n.junit,
    profile: n.profile,
  })) {
    for (const form of keyForms())
      expect(text.includes(form), `${where} contains ${JSON.stringify(form)}`).toBe(false);
  }
}

beforeAll(async () => {
  target = await startTarget({ rewriteHrefs: false });
  dir = mkdtempSync(join(tmpdir(), 'contract-cli-'));
  const examples = (await (await fetch(new URL('/examples.json', target.mock.url))).json()) as {
    crossReference: { byMatchType: Record<string, { partNumber: string }> };
  };
  xrefNumbers = [
    ...new Set(Object.values(examples.crossReference.byMatchType).map((m) => m.partNumber)),
  ].join(',');
});

afterAll(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('web-data-contract against a live target behind a pass-through proxy', () => {
  it(
    'a conforming night exits 0; the next, with two rules broken and --baseline, exits 1 leading with what is new; no form of the key anywhere',
    async () => {
      target.proxy.use(conforming());
      const first = await night('night-1', []);
      const report1 = JSON.parse(first.json) as {
        passed: boolean;
        counts: { failures: number };
        findings: { severity: string; rule: string }[];
      };
      expect(
        report1.findings.filter((f) => f.severity === 'failure'),
        first.markdown,
      ).toEqual([]);
      expect(first.code, first.console.slice(-3000)).toBe(0);
      expect(report1.passed).toBe(true);
      const warned = report1.findings.filter((f) => f.severity === 'warning').map((f) => f.rule);
      // The hrefs name the mock's origin, not the proxy's; no rate-limit headers, said once; the echoed key is an undeclared field.
      expect(warned).toContain('href-origin');
      expect(warned.filter((r) => r === 'rate-limit-headers')).toHaveLength(1);
      expect(warned).toContain('undeclared-field');
      expectNoKey(first);

      target.proxy.use(conforming(broken));
      const second = await night('night-2', [
        '--baseline',
        join(dir, 'night-1', 'contract-report.json'),
      ]);
      expect(second.code, second.console.slice(-3000)).toBe(1);
      const report2 = JSON.parse(second.json) as {
        passed: boolean;
        baseline: { new: number; known: number };
        findings: { severity: string; rule: string; baseline?: string }[];
      };
      expect(report2.passed).toBe(false);
      const fresh = report2.findings
        .filter((f) => f.baseline === 'new' && f.severity === 'failure')
        .map((f) => f.rule);
      expect(fresh).toEqual(expect.arrayContaining(['schema', 'href-resolves']));
      expect(
        report2.findings.filter((f) => f.rule === 'href-origin').map((f) => f.baseline),
      ).toEqual(['known']);
      // The summary leads with what is new: before the run's own line, its failures and its warnings.
      const lines = second.markdown.split('\n');
      expect(lines[0]).toMatch(/^## Contract suite: FAILED/);
      // First what the service did against then (the profile beside night 1's report), then the findings.
      expect(lines[2]).toMatch(
        /^Against what the service did then \(`.*profile\.json`\): \*\*\d+ change/,
      );
      expect(second.markdown).toMatch(/\nAgainst the baseline `.*`: \*\*\d+ new failure\(s\)\*\*/);
      expect(second.markdown.indexOf('### New since the baseline')).toBeLessThan(
        second.markdown.indexOf('\nTarget '),
      );
      // The failures reached every output (so the absence of the key below means something).
      expect(second.junit).toMatch(/<failure/);
      expect(second.markdown).toMatch(/href\\-resolves/);
      expectNoKey(second);
    },
    RUN_MS,
  );
});
