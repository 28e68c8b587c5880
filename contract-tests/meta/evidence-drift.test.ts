/**
 * @module meta/evidence-drift.test
 * Drift against what the service was seen to do, proved with two-night runs: night 1 the real mock
 * (behind a pass-through proxy, as a live target), night 2 the same mock changed the way a live
 * service might change where the document is silent, with night 1's report as `--baseline`. Each
 * night is the contract suite's documents family and its drift test, run by vitest itself (the
 * documented env-only run, `CONTRACT_BASE_URL=... CONTRACT_BASELINE=... npm run contract`), and the
 * exit status is vitest's own, which the command's verdict must equal. Removals and changes of
 * format, default page size or default order exit 1; new fields and new enum values warn and exit
 * 0; an unchanged night exits 0 with no change, and its profile is night 1's, byte for byte.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, verdictOf } from '../../src/suite/cli.js';
import type { Finding } from '../../src/suite/support/findings.js';
import { DEFAULTS } from '../../src/suite/support/options.js';
import { onList, startTarget, type Body, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
/** One family's run takes ~20 s alone; the machine is shared. */
const NIGHT_MS = 120_000;

interface Night {
  /** vitest's own exit status. */
  code: number | undefined;
  /** The command's, from the same run (vitest's and the report's verdict). */
  commandCode: number | undefined;
  report: { passed: boolean; findings: Finding[]; drift?: { failures: number; warnings: number } };
  markdown: string;
  profile: string;
  console: string;
}

let target: Target;
let dir: string;
let baseline: string;
let first: Night;

function night(name: string, extra: Record<string, string> = {}): Promise<Night> {
  const reports = join(dir, name);
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONTRACT_') && !k.startsWith('VITEST') && k !== 'GITHUB_STEP_SUMMARY',
    ),
  );
  const child = spawn(
    process.execPath,
    [
      VITEST,
      'run',
      '--config',
      'contract-tests/vitest.config.ts',
      'contract-tests/documents.contract.test.ts',
      'contract-tests/drift.contract.test.ts',
    ],
    {
      cwd: ROOT,
      env: {
        ...clean,
        CONTRACT_BASE_URL: target.proxy.url,
        CONTRACT_API_KEY: DEFAULTS.mockApiKey,
        CONTRACT_RELEASE: 'unreleased',
        CONTRACT_REPORT_DIR: reports,
        NO_COLOR: '1',
        ...extra,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const json = join(reports, 'contract-report.json');
      const read = (file: string) => readFileSync(join(reports, file), 'utf8');
      resolve({
        code: code ?? undefined,
        commandCode: exitOf(code ?? 1, verdictOf(json, undefined)),
        report: JSON.parse(read('contract-report.json')),
        markdown: read('contract-summary.md'),
        profile: read('profile.json'),
        console: output.slice(-4000),
      });
    });
  });
}

/** A second night against the changed server, with night 1's report as the baseline. */
async function changedNight(name: string, mutation: Mutation | undefined): Promise<Night> {
  target.proxy.use(mutation);
  try {
    const n = await night(name, { CONTRACT_BASELINE: baseline });
    // One verdict: vitest run bare and the command agree.
    expect(n.code, n.console).toBe(n.commandCode);
    return n;
  } finally {
    target.proxy.use(undefined);
  }
}

const drifts = (n: Night) => n.report.findings.filter((f) => f.rule.startsWith('drift.'));
const driftsOf = (n: Night, rule: string) => drifts(n).filter((f) => f.rule === rule);

/** The night warned of `rule` at `pointer`, failed nothing and exited 0; returns the warning. */
function warnedOnly(n: Night, rule: string, pointer: string): Finding {
  const [found] = driftsOf(n, rule).filter((f) => f.pointer === pointer);
  expect(found, n.markdown).toMatchObject({ severity: 'warning' });
  expect(
    n.report.findings.filter((f) => f.severity === 'failure'),
    n.markdown,
  ).toEqual([]);
  expect(n.code).toBe(0);
  return found;
}

/** Changes every record of every documents list page. */
const everyDocument = (change: (record: Record<string, unknown>) => void): Mutation =>
  onList('/documents', (b: Body) => b.data?.forEach(change));

beforeAll(async () => {
  target = await startTarget();
  dir = mkdtempSync(join(tmpdir(), 'evidence-drift-'));
  first = await night('night-1');
  baseline = join(dir, 'night-1', 'contract-report.json');
}, NIGHT_MS);

afterAll(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('two nights, drift against what the service did', () => {
  it('night 1 (the mock) passes and writes profile.json beside the report', () => {
    expect(first.code, first.console).toBe(0);
    expect(first.commandCode).toBe(0);
    expect(JSON.parse(first.profile).operations.listDocuments.count).toBeGreaterThan(0);
  });

  it(
    'an unchanged night exits 0, reports no change, and its profile is the same bytes',
    async () => {
      const again = await changedNight('unchanged', undefined);
      expect(drifts(again)).toEqual([]);
      expect(again.code, again.console).toBe(0);
      expect(again.markdown).toMatch(/\*\*0 change\(s\) that break clients\*\*, 0 warning\(s\)/);
      expect(again.profile).toBe(first.profile);
    },
    NIGHT_MS,
  );

  it(
    'a field dropped from every record fails (exit 1), though the document does not require it',
    async () => {
      const n = await changedNight(
        'dropped',
        everyDocument((r) => void delete r.nid),
      );
      const [removed] = driftsOf(n, 'drift.field-removed').filter(
        (f) => f.pointer === '/data/*/nid',
      );
      expect(removed, n.markdown).toMatchObject({
        severity: 'failure',
        operationId: 'listDocuments',
      });
      expect(removed.curl).toMatch(/^curl -sS -i '.*\/documents.*' -H "x-api-key: \$API_KEY"$/);
      expect(n.code).toBe(1);
      // The summary leads with it (escaped as Markdown text): before the run's own line.
      const at = n.markdown.indexOf('drift\\.field\\-removed');
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(n.markdown.indexOf('\nTarget '));
    },
    NIGHT_MS,
  );

  it(
    'a date-time served as a date fails (exit 1)',
    async () => {
      const n = await changedNight(
        'date',
        everyDocument((r) => void (r.wwwUpdateDate = String(r.wwwUpdateDate).slice(0, 10))),
      );
      const [format] = driftsOf(n, 'drift.format').filter(
        (f) => f.pointer === '/data/*/wwwUpdateDate',
      );
      expect(format, n.markdown).toMatchObject({ severity: 'failure' });
      expect(format.expected).toMatch(/date-time/);
      expect(format.actual).toMatch(/^date \d+$/);
      expect(n.code).toBe(1);
    },
    NIGHT_MS,
  );

  it(
    'a new enum value warns and exits 0',
    async () => {
      // A service that renamed a document type: listed under the new name and filtered by it.
      const rename = everyDocument(
        (r) => void (r.type === 'Errata' && (r.type = 'Erratum Notice')),
      );
      const n = await changedNight('enum', {
        request(req) {
          if (req.path === '/documents' && req.query.get('type') === 'Erratum Notice')
            req.query.set('type', 'Errata');
        },
        response: rename.response,
      });
      expect(warnedOnly(n, 'drift.enum-value', '/data/*/type').actual).toBe('"Erratum Notice"');
    },
    NIGHT_MS,
  );

  it(
    'a default page size of 25 where the document infers 10 fails (exit 1)',
    async () => {
      const n = await changedNight('page-size', {
        request(req) {
          if (req.path === '/documents' && !req.query.has('limit')) req.query.set('limit', '25');
        },
      });
      const sizes = driftsOf(n, 'drift.default-limit');
      expect(sizes.length, n.markdown).toBeGreaterThan(0);
      expect(sizes.map((f) => f.actual).join(' ')).toMatch(/25/);
      expect(n.code).toBe(1);
    },
    NIGHT_MS,
  );

  it(
    'an undeclared field present in every record warns and exits 0',
    async () => {
      const n = await changedNight(
        'new-field',
        everyDocument((r) => void (r.region = 'EU')),
      );
      expect(warnedOnly(n, 'drift.new-field', '/data/*/region').actual).toMatch(/^carried by/);
    },
    NIGHT_MS,
  );

  it(
    'a different default order fails (exit 1)',
    async () => {
      const n = await changedNight(
        'order',
        onList('/documents', (b) => void b.data?.reverse()),
      );
      const [order] = driftsOf(n, 'drift.default-order');
      expect(order, n.markdown).toMatchObject({
        severity: 'failure',
        operationId: 'listDocuments',
      });
      expect(order.expected).toMatch(/agileId asc/);
      expect(n.code).toBe(1);
    },
    NIGHT_MS,
  );
});
