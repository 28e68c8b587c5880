/**
 * @module meta/reports.test
 * What the suite writes: every form of a key redacted, findings compared with a baseline report,
 * failures no test carries (a file that did not load, a hook, an unhandled error) in the reports,
 * and the command line's answers to usage errors and an unreachable target (one line, exit 2) and
 * its exit status after a run. The whole command against a live target is in cli.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareWithBaseline, readBaseline } from '../../src/suite/support/baseline.js';
import { redactSecrets } from '../../src/redaction.js';
import type { Finding } from '../../src/suite/support/findings.js';
import { requestsSent, runErrors, thrownFailure } from '../../src/suite/support/collect.js';
import { exitOf } from '../../src/suite/cli.js';
import { startMockServer } from '../../src/server/listen.js';

const BIN = fileURLToPath(new URL('../../bin/web-data-contract.js', import.meta.url));

describe('redaction', () => {
  const key = 'k"ey/with +&=%special\\chars';
  it.each([
    ['raw', key],
    ['percent-encoded', encodeURIComponent(key)],
    ['form-encoded', encodeURIComponent(key).replace(/%20/g, '+')],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(key)).slice(3, -3)],
  ])('removes the %s form', (_form, text) => {
    const out = redactSecrets(`before ${text} after`, [key]);
    expect(out).toBe('before *** after');
  });

  it('redacts inside a report serialized as JSON', () => {
    const report = JSON.stringify(
      { message: `echoed ${key}`, url: `https://x.test/?k=${encodeURIComponent(key)}` },
      null,
      2,
    );
    expect(redactSecrets(report, [key])).not.toMatch(/special/);
  });
});

const finding = (
  rule: string,
  pointer: string,
  severity: Finding['severity'] = 'failure',
): Finding => ({
  severity,
  rule,
  operationId: 'listProducts',
  method: 'GET',
  url: 'http://127.0.0.1:1234/web-data/v1/products',
  pointer,
  expected: 'x',
  message: 'm',
});

describe('baseline', () => {
  it('marks findings new or known by rule, operation and pointer pattern, and lists what is gone', () => {
    const previous = [finding('schema', '/data/3/title'), finding('sort-order', '/data/1/title')];
    const current = [
      { ...finding('schema', '/data/7/title'), url: 'http://127.0.0.1:9999/web-data/v1/products' },
      finding('pagination.offset', '/pagination/offset'),
    ];
    const { findings, gone } = compareWithBaseline(current, previous);
    expect(findings.map((f) => [f.rule, f.baseline])).toEqual([
      ['schema', 'known'],
      ['pagination.offset', 'new'],
    ]);
    expect(gone.map((f) => f.rule)).toEqual(['sort-order']);
  });

  it('refuses a file that is not a contract report, naming it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'contract-baseline-')), 'old.json');
    writeFileSync(file, '{"passed": true}');
    expect(() => readBaseline(file)).toThrow(`CONTRACT_BASELINE ${file}: not a contract report`);
  });
});

describe('web-data-contract', () => {
  const clean = () =>
    Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('CONTRACT_') && k !== 'GITHUB_STEP_SUMMARY',
      ),
    );
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, ...args], {
      env: { ...clean(), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  /** The command while this process serves its target (spawnSync would block the target too). */
  const runAsync = (args: string[], env: Record<string, string>) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { env: { ...clean(), ...env } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (status) => resolve({ status, stderr }));
    });

  it('--help prints the usage and exits 0', () => {
    const out = run(['--help']);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^Usage: web-data-contract \[options\] \[base-url\]/);
    expect(out.stdout).toMatch(/--public-base-url <url>.*CONTRACT_PUBLIC_BASE_URL/);
  });

  it.each([
    [['--bogus'], {}, /^web-data-contract: Unknown option '--bogus' \(see --help\)\n$/],
    [
      ['http://127.0.0.1:9/web-data/v1'],
      {},
      /^web-data-contract: CONTRACT_API_KEY is required with a base URL \(the base URL argument\)\n$/,
    ],
    [
      ['http://127.0.0.1:9/other'],
      { CONTRACT_API_KEY: 'k' },
      /^web-data-contract: the base URL argument must be an http\(s\) URL ending in \/web-data\/v1/,
    ],
    [
      ['--concurrency', 'many'],
      {},
      /^web-data-contract: --concurrency must be a positive integer, got "many"\n$/,
    ],
    [['--release', '9.9'], {}, /^web-data-contract: Unknown release "9.9"/],
    [
      ['--baseline', '/no/such/report.json'],
      {},
      /^web-data-contract: --baseline \/no\/such\/report.json: cannot read/,
    ],
    [['a', 'b'], {}, /^web-data-contract: one base URL expected, got 2/],
    [
      ['--restricted-families', 'docments'],
      {},
      /^web-data-contract: --restricted-families names no family of the document: docments \(families: products, /,
    ],
    // A variable the user set (not through a flag) is named as the variable.
    [
      [],
      { CONTRACT_BASE_URL: 'http://127.0.0.1:9/other', CONTRACT_API_KEY: 'k' },
      /^web-data-contract: CONTRACT_BASE_URL must be an http\(s\) URL ending in \/web-data\/v1/,
    ],
  ])('%j: one line naming the argument, flag or variable given, exit 2', (args, env, message) => {
    const out = run(args, env);
    expect(out.stderr).toMatch(message);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.status).toBe(2);
  });

  it('a yes/no variable that is neither, or a report directory that cannot be made: one line, exit 2', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'contract-cli-')), 'a-file');
    writeFileSync(file, '');
    const strict = run([], { CONTRACT_STRICT: 'ture' });
    expect(strict.stderr).toBe(
      'web-data-contract: CONTRACT_STRICT must be 1, true, yes or on (or 0, false, no, off), got "ture"\n',
    );
    expect(strict.status).toBe(2);
    const dir = run(['--report-dir', join(file, 'reports')]);
    expect(dir.stderr).toBe(
      `web-data-contract: --report-dir ${join(file, 'reports')}: ${file} is not a directory\n`,
    );
    expect(dir.status).toBe(2);
  });

  it('the exit status of a completed run follows the report as well as vitest', () => {
    expect(exitOf(0, { passed: true })).toBe(0);
    // Every test passed, yet the report is not green (nothing real was tested): not a conforming run.
    expect(exitOf(0, { passed: false })).toBe(1);
    expect(exitOf(1, { passed: false })).toBe(1);
    expect(exitOf(1, { passed: true })).toBe(1);
    // No report from this run: the caller says the suite did not complete (exit 2).
    expect(exitOf(0, undefined)).toBeUndefined();
  });

  it('an unreachable target: one line naming it, exit 2, nothing run; the summary and the step summary say why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-unreachable-'));
    const step = join(dir, 'step-summary.md');
    writeFileSync(step, 'an earlier step\n');
    const out = run(
      ['http://127.0.0.1:9/web-data/v1', '--timeout-ms', '2000', '--report-dir', dir],
      { CONTRACT_API_KEY: 'secret-key-123', GITHUB_STEP_SUMMARY: step },
    );
    expect(out.stderr).toMatch(
      /^web-data-contract: target http:\/\/127.0.0.1:9\/web-data\/v1 is not reachable: .*nothing was tested\n$/,
    );
    expect(out.stderr).not.toContain('secret-key-123');
    expect(out.status).toBe(2);
    const summary = readFileSync(join(dir, 'contract-summary.md'), 'utf8');
    expect(summary).toMatch(/^## Contract suite: NOT RUN\n\ntarget http\\:.* is not reachable\\: /);
    expect(readFileSync(step, 'utf8')).toBe(`an earlier step\n${summary}\n`);
  });

  it('a baseline that cannot be used: the run still writes its report and profile, says why and fails (exit 1)', () => {
    const last = mkdtempSync(join(tmpdir(), 'contract-last-'));
    writeFileSync(join(last, 'contract-report.json'), '{"findings": []}');
    writeFileSync(join(last, 'profile.json'), '{"format": "web-data-profile/1", "count": "1"}');
    const dir = mkdtempSync(join(tmpdir(), 'contract-tonight-'));
    const out = run(['--baseline', join(last, 'contract-report.json'), '--report-dir', dir], {});
    expect(out.status, out.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'contract-report.json'), 'utf8')) as {
      findings: Finding[];
    };
    expect(report.findings.filter((f) => f.rule === 'baseline')).toEqual([
      expect.objectContaining({
        severity: 'failure',
        message: expect.stringContaining(`${join(last, 'profile.json')}: not a profile`),
      }),
    ]);
    expect(readFileSync(join(dir, 'profile.json'), 'utf8')).toMatch(/"format"/);
    expect(readFileSync(join(dir, 'contract-summary.md'), 'utf8')).toMatch(/not a profile/);
  }, 120_000);

  it('a key the target refuses (401 on everything): one line saying so, exit 2, and the summary says why', async () => {
    const mock = await startMockServer({ validateResponses: false });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'contract-refused-'));
      const out = await runAsync([mock.url, '--report-dir', dir], {
        CONTRACT_API_KEY: 'not-a-key-of-this-target',
      });
      expect(out.stderr).toMatch(
        /^web-data-contract: the target refused the key: CONTRACT_API_KEY got 401 on GET http:.*; check the key \(nothing was tested\)\n$/,
      );
      expect(out.stderr).not.toContain('not-a-key-of-this-target');
      expect(out.status).toBe(2);
      expect(readFileSync(join(dir, 'contract-summary.md'), 'utf8')).toMatch(/refused the key/);
    } finally {
      await mock.close();
    }
  });
});

describe('the request count', () => {
  it('counts requests sent, answered or not (a slow target answers none in time)', () => {
    const unanswered = { findings: [], notes: [], sent: 43 };
    const answered = {
      findings: [],
      notes: [
        { operationId: 'listProducts', status: 200, auth: 'main' as const, preferred: false },
      ],
      sent: 2,
    };
    expect(requestsSent([unanswered, answered, undefined])).toBe(45);
  });
});

describe('the reports never hide a failure', () => {
  it('a test that failed by throwing becomes a failure finding with its message', () => {
    const test = {
      fullName: 'products > sort order',
      result: () => ({
        state: 'failed',
        errors: [{ message: 'the check itself failed: TypeError: x is undefined' }],
      }),
      meta: () => ({}),
    };
    const found = thrownFailure(
      test as unknown as Parameters<typeof thrownFailure>[0],
      'http://t/web-data/v1',
    );
    expect(found).toMatchObject({
      severity: 'failure',
      rule: 'check-error',
      operationId: 'products > sort order',
      message: 'the check itself failed: TypeError: x is undefined',
    });
  });

  it('a test file that failed to load, a hook that threw and an unhandled error are failures with their messages', () => {
    const error = (message: string) => ({ name: 'Error', message });
    const module = {
      moduleId: '/suite/products.contract.test.ts',
      errors: () => [error('Cannot find module ./support/family-suite.js')],
      children: {
        allSuites: () =>
          [
            { fullName: 'products', errors: () => [error('beforeAll: the mock did not start')] },
            { fullName: 'fine', errors: () => [] },
          ][Symbol.iterator](),
      },
    };
    const found = runErrors(
      [module as unknown as Parameters<typeof runErrors>[0][number]],
      [{ name: 'TypeError', message: 'late' }],
      'http://t/web-data/v1',
    );
    expect(found.map((f) => [f.severity, f.rule, f.operationId, f.message])).toEqual([
      [
        'failure',
        'check-error',
        '/suite/products.contract.test.ts',
        'Cannot find module ./support/family-suite.js',
      ],
      [
        'failure',
        'check-error',
        'products (/suite/products.contract.test.ts)',
        'beforeAll: the mock did not start',
      ],
      ['failure', 'check-error', '(the run)', 'TypeError: late'],
    ]);
  });

  it('a failed test whose findings carry the failure adds nothing', () => {
    const test = {
      fullName: 't',
      result: () => ({ state: 'failed', errors: [{ message: '1 contract failure(s)' }] }),
      meta: () => ({ contract: { findings: [finding('schema', '/a')], notes: [] } }),
    };
    expect(
      thrownFailure(test as unknown as Parameters<typeof thrownFailure>[0], 'x'),
    ).toBeUndefined();
  });
});
