/**
 * @module meta/hostile-night.test
 * Issue 30's proof end to end: two nights of `web-data-contract` against a hostile live service
 * (src/testing/hostile-upstream.ts spoiling the mock's own answers: the key echoed upper-cased in
 * header names and values, the media type and the body; `constructor`/`toString`/`__proto__` as
 * names; `1e400` and a 400-digit header; 30 undeclared fields per record and a 5,000-character
 * name; Markdown, HTML and YAML in names and values), then the evidence ledger over the first
 * night's profile. No file holds the key in any form, no rendered output carries structure of the
 * server's making, every output stays under its bound, and the second night, with the first as
 * its `--baseline`, runs normally (it writes its report; the baseline is not refused).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseHtml } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode, type Ran } from './harness.js';
import { holdsSecret } from '../../src/redaction.js';
import { startMockServer, type RunningServer } from '../../src/server/listen.js';
import { startHostileUpstream, type HostileUpstream } from '../../src/testing/hostile-upstream.js';
import { DEFAULTS } from '../../src/suite/support/options.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONTRACT = join(ROOT, 'bin', 'web-data-contract.js');
const EVIDENCE = join(ROOT, 'bin', 'web-data-evidence.js');
const KEY = DEFAULTS.mockApiKey;
/** GitHub's limit for one step summary. */
const SUMMARY_BOUND = 1024 * 1024;
/** Two suite runs against a live target and one ledger. */
const RUN_MS = 240_000;

let mock: RunningServer;
let upstream: HostileUpstream;
let dir: string;

function run(bin: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runNode([bin, ...args], { CONTRACT_API_KEY: KEY, ...env });
}

/** Every file under `folder`, with its text. */
function filesIn(folder: string): Array<{ path: string; text: string; bytes: number }> {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8'), bytes: statSync(path).size }));
}

/** The Markdown nodes a server's text must never become. */
function foreignMarkdown(markdown: string): string[] {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const found: string[] = [];
  const walk = (node: { type: string; url?: string; children?: unknown[]; value?: string }) => {
    if (node.type === 'image' || node.type === 'html')
      found.push(`${node.type}: ${node.value ?? node.url}`);
    if ((node.type === 'link' || node.type === 'definition') && node.url?.includes('evil.example'))
      found.push(`link: ${node.url}`);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(tree);
  return found;
}

/** Elements or attributes of the server's making in an HTML page: a script with its text, an event handler. */
function foreignHtml(html: string): string[] {
  const found: string[] = [];
  const walk = (node: {
    nodeName: string;
    attrs?: Array<{ name: string }>;
    childNodes?: unknown[];
    value?: string;
  }) => {
    if (node.nodeName === 'img') found.push('img');
    for (const attr of node.attrs ?? []) if (attr.name.startsWith('on')) found.push(attr.name);
    for (const child of node.childNodes ?? []) walk(child as typeof node);
  };
  walk(parseHtml(html));
  return found;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-night-'));
  mock = await startMockServer({ seed: 1, validateResponses: false });
  upstream = await startHostileUpstream({
    honest: mock.url,
    echoKey: {
      case: 'upper',
      in: ['header-name', 'header-value', 'content-type', 'body-name', 'body-value'],
    },
    prototypeNames: true,
    hugeNumbers: true,
    undeclaredFields: 30,
    longName: 5000,
    markup: true,
  });
});

afterAll(async () => {
  await upstream?.close();
  await mock?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('two nights against a hostile live service, then the ledger', () => {
  it(
    'leaves no form of the key, no foreign structure and nothing over its bound; the next night runs',
    async () => {
      const night1 = join(dir, 'night-1');
      const stepSummary = join(dir, 'step-summary.md');
      writeFileSync(stepSummary, '');
      const first = await run(CONTRACT, [upstream.url, '--report-dir', night1], {
        GITHUB_STEP_SUMMARY: stepSummary,
      });
      // Drift or findings are a verdict (1) or a pass (0), never a crash or a usage error.
      expect([0, 1], first.output.slice(-2000)).toContain(first.code);
      // The attacks reached the suite: it answered the run, and the spoiled fields were seen.
      expect(upstream.answered).toBeGreaterThan(100);
      expect(readFileSync(join(night1, 'contract-report.json'), 'utf8')).toContain(
        'undeclared-field',
      );

      const evidence = join(dir, 'evidence');
      const ledger = await run(EVIDENCE, [
        'ledger',
        '--profile',
        join(night1, 'profile.json'),
        '-o',
        evidence,
      ]);
      expect(ledger.code, ledger.output.slice(-2000)).toBe(0);

      const night2 = join(dir, 'night-2');
      const second = await run(CONTRACT, [
        upstream.url,
        '--report-dir',
        night2,
        '--baseline',
        join(night1, 'contract-report.json'),
      ]);
      expect([0, 1], second.output.slice(-2000)).toContain(second.code);
      expect(second.output).not.toMatch(/baseline[^\n]*(unusable|refused|could not)/i);

      const written = [...filesIn(night1), ...filesIn(evidence), ...filesIn(night2)];
      written.push({
        path: stepSummary,
        text: readFileSync(stepSummary, 'utf8'),
        bytes: statSync(stepSummary).size,
      });
      expect(written.map((f) => f.path)).toEqual(
        expect.arrayContaining([
          join(night1, 'contract-summary.md'),
          join(night1, 'profile.json'),
          join(evidence, 'evidence.md'),
          join(evidence, 'evidence.html'),
          join(night2, 'contract-report.json'),
        ]),
      );
      for (const file of written) {
        expect(holdsSecret(file.text, [KEY]), file.path).toBe(false);
      }
      for (const out of [first.output, second.output, ledger.output])
        expect(holdsSecret(out, [KEY])).toBe(false);

      for (const file of written.filter((f) => f.path.endsWith('.md'))) {
        expect(foreignMarkdown(file.text), file.path).toEqual([]);
        if (file.path.endsWith('contract-summary.md') || file.path === stepSummary)
          expect(file.bytes, file.path).toBeLessThanOrEqual(SUMMARY_BOUND);
      }
      for (const file of written.filter((f) => f.path.endsWith('.html')))
        expect(foreignHtml(file.text), file.path).toEqual([]);
      // The profile is the next night's baseline: it parsed (night 2 ran) and keeps no long name whole.
      expect(readFileSync(join(night1, 'profile.json'), 'utf8')).not.toMatch(/n{1000}/);
    },
    RUN_MS,
  );
});
