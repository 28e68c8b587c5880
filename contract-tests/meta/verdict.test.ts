/**
 * @module meta/verdict.test
 * The summary a person reads first, on a target of an older release checked as the newest (the
 * mock at `--api-version 1.1.0`, the suite at its default release), through `runContract()`: it
 * fails, and the summary leads with the verdict, says the target looks like release 1.1.0 with
 * the flag that checks it as that one, then the findings grouped by cause; it stays under 1 MiB,
 * while the JSON report keeps every finding. Run bare, with no release given, the console names the
 * release the reports name (the one resolved, not "latest").
 */
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../../src/server/listen.js';
import { runContract, type ContractReport } from '../../src/suite/run.js';
import { DEFAULTS } from '../../src/suite/support/options.js';
import { SUMMARY_LIMIT_BYTES } from '../../src/suite/support/summary.js';

/** One whole suite run; the machine is shared. */
const RUN_MS = 180_000;

let mock: RunningServer;
let dir: string;
let report: ContractReport;
let summary: string;

beforeAll(async () => {
  mock = await startMockServer({ apiVersion: '1.1.0', validateResponses: false });
  dir = mkdtempSync(join(tmpdir(), 'contract-verdict-'));
  report = await runContract({
    baseUrl: mock.url,
    apiKey: DEFAULTS.mockApiKey,
    restrictedApiKey: DEFAULTS.mockRestrictedApiKey,
    // Found to be our mock (its /examples.json), it would spend the rate-limit key's quota: not asked here.
    provokeRateLimit: false,
    reportDir: dir,
  });
  summary = readFileSync(join(dir, 'contract-summary.md'), 'utf8');
}, RUN_MS);

afterAll(async () => {
  await mock?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a 1.1.0 target checked as the newest release', () => {
  it('fails, and the report names the release the findings fit', () => {
    expect(report.passed).toBe(false);
    expect(report.release).toBe('1.3.0');
    expect(report.releaseHint?.release, summary).toBe('1.1.0');
    expect(report.releaseHint?.unknownPaths.length).toBeGreaterThan(0);
  });

  it('the summary leads with the verdict, the release hint and its flag, then the roll-up by cause', () => {
    const lines = summary.split('\n');
    expect(lines[0]).toBe('## Contract suite: FAILED');
    expect(lines[2]).toMatch(
      /^\*\*The target looks like release 1\\\.1\\\.0\*\*.*, not 1\\\.3\\\.0: /,
    );
    expect(lines[2]).toContain('`--release 1.1.0`');
    const byCause = summary.indexOf('\n### By cause\n');
    expect(byCause).toBeGreaterThan(0);
    expect(byCause).toBeLessThan(summary.indexOf('\n### Coverage\n'));
    // The table's rows: failures first, each with its count and operations; then the first of each.
    const rows = lines.slice(lines.indexOf('### By cause') + 4).filter((l) => l.startsWith('| '));
    expect(rows[0]).toMatch(/^\| failure \| .+ \| \d+ \| .+ \(\d+\)/);
    expect(summary).toMatch(/\nThe first of each:\n\n- failure \*\*/);
    expect(report.causes.reduce((n, c) => n + c.count, 0)).toBe(
      report.findings.filter((f) => f.rule !== 'not-run').length,
    );
  });

  it('tests that do not apply are skipped with their reason in the report, JUnit and the summary', () => {
    const skipped = report.tests.filter((t) => t.state === 'skipped');
    // The 429 is not provoked unless asked; boards have no downloads.
    expect(skipped.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'rate limit > a spent quota gives 429 whose retry_after equals Retry-After (mock, or CONTRACT_PROVOKE_RATE_LIMIT=1)',
        'boards-kits > downloads: HEAD and GET agree on length and type',
      ]),
    );
    expect(skipped.every((t) => t.skipped && t.skipped.length > 0)).toBe(true);
    expect(report.counts.skipped).toBe(skipped.length);
    const junit = readFileSync(join(dir, 'contract-junit.xml'), 'utf8');
    const cases = junit.split('<testcase ').slice(1);
    const skippedCases = cases.filter((c) => c.includes('<skipped/>'));
    expect(skippedCases).toHaveLength(skipped.length);
    for (const c of skippedCases) expect(c).toMatch(/<property name="skipped" value="[^"]+">/);
    expect(summary).toMatch(
      /\n\| rate limit \\> a spent quota .* \| a 429 is provoked only when asked .* \|\n/,
    );
  });

  it('stays under 1 MiB, the JSON report keeping every finding', () => {
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES);
    expect(report.counts.failures).toBe(
      report.findings.filter((f) => f.severity === 'failure').length,
    );
  });
});

describe('the release named', () => {
  it(
    'is the same on the console and in the summary when none is given',
    async () => {
      const reports = mkdtempSync(join(tmpdir(), 'contract-release-'));
      const vitest = join(
        dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
        'vitest.mjs',
      );
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(
          ([k]) =>
            !k.startsWith('CONTRACT_') && !k.startsWith('VITEST') && k !== 'GITHUB_STEP_SUMMARY',
        ),
      );
      // spawnSync would hold this process, and so the mock it serves: run it on a promise instead.
      const out = await new Promise<string>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            vitest,
            'run',
            '--config',
            'contract-tests/vitest.config.ts',
            'contract-tests/rate-limit.contract.test.ts',
          ],
          {
            cwd: fileURLToPath(new URL('../..', import.meta.url)),
            env: {
              ...clean,
              CONTRACT_BASE_URL: mock.url,
              CONTRACT_API_KEY: DEFAULTS.mockApiKey,
              CONTRACT_REPORT_DIR: reports,
              CONTRACT_PROVOKE_RATE_LIMIT: '0',
              NO_COLOR: '1',
            },
          },
        );
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('close', () => resolve(text));
      });
      try {
        // Our mock at a URL is found by its /examples.json and checked in full, at the newest release.
        expect(out).toMatch(
          /^contract suite: target .* \(mock: a web-data mock, every check of the bundled mock\), release 1\.3\.0, /m,
        );
        expect(out).not.toMatch(/release latest/);
        expect(readFileSync(join(reports, 'contract-summary.md'), 'utf8')).toMatch(
          /\nTarget `.*` \(mock\), release 1\\\.3\\\.0, /,
        );
      } finally {
        rmSync(reports, { recursive: true, force: true });
      }
    },
    RUN_MS,
  );
});
