/**
 * @module meta/nightly-drift.test
 * A nightly run that does not cry wolf: staging data changes every night within what the document
 * allows, and that is no drift. Night 1 is the compiled mock at seed 7; night 2 is new but
 * conforming data, the mock at seed 8 (other records, the same service) or at seed 7 with
 * `--vary 3` (every answer varied as far as the document allows), each checked by the compiled
 * `web-data-contract` with night 1's report as `--baseline`. Both must pass with no drift failure,
 * never a type or nullability drift (the document declares those unions), no identifier or link
 * taken for an enum, and a number of drift warnings a reader can take in. The other way round (a
 * changed service still fails) is evidence-drift.test.ts's and src/evidence/drift.test.ts's.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/suite/support/report.js';
import { compiledMock, DEMO_KEYS, REPOSITORY, runNode } from './harness.js';

/** One whole suite run against the mock (seconds; generous for a loaded machine). */
const RUN_MS = 180_000;
/** Drift warnings a reader takes in over a cup of coffee (seed 8 gave 16, --vary 3 gave 46). */
const READABLE = 60;

const dir = mkdtempSync(join(tmpdir(), 'nightly-drift-'));
const mocks: ChildProcess[] = [];
let baseline: string;

afterAll(() => {
  for (const mock of mocks) mock.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** A night: the compiled mock with `mockArgs`, the compiled suite against it; its report. */
async function night(name: string, mockArgs: string[], flags: string[] = []) {
  const url = await compiledMock(mockArgs, mocks);
  const reports = join(dir, name);
  const ran = await runNode(
    [join(REPOSITORY, 'bin', 'web-data-contract.js'), url, '--report-dir', reports, ...flags],
    DEMO_KEYS,
  );
  mocks.pop()?.kill();
  const file = join(reports, 'contract-report.json');
  const report = JSON.parse(readFileSync(file, 'utf8')) as ContractReport;
  const drift = report.findings.filter((f) => f.rule.startsWith('drift.'));
  const shown = drift.map((f) => `${f.severity} ${f.rule} ${f.operationId} ${f.pointer}`);
  return { ...ran, file, report, drift, shown: shown.join('\n') || ran.output.slice(-2000) };
}

beforeAll(async () => {
  const first = await night('seed-7', ['--seed', '7']);
  expect(first.code, first.output.slice(-2000)).toBe(0);
  baseline = first.file;
}, RUN_MS);

describe('two nights of changing but conforming data pass against the first', () => {
  for (const [name, args] of [
    ['another seed (8)', ['--seed', '8']],
    ['--vary 3', ['--seed', '7', '--vary', '3']],
  ] as const)
    it(
      `${name}: exit 0, no drift failure, no type or nullability drift, few warnings`,
      async () => {
        const n = await night(name.replace(/\W+/g, '-'), [...args], ['--baseline', baseline]);
        expect(n.report.drift, n.shown).toMatchObject({ failures: 0 });
        expect(
          n.drift.filter((f) => f.severity === 'failure'),
          n.shown,
        ).toEqual([]);
        expect(n.code, n.shown).toBe(0);
        const kinds = new Set(n.drift.map((f) => f.rule));
        expect(kinds.has('drift.type') || kinds.has('drift.nullability'), n.shown).toBe(false);
        // Identifiers and hrefs are not enums.
        const enums = n.drift.filter((f) => f.rule === 'drift.enum-value').map((f) => f.pointer);
        expect(
          enums.filter((p) => /(?:Id|href|Url|uuid)$/.test(p ?? '')),
          n.shown,
        ).toEqual([]);
        expect(n.drift.length, n.shown).toBeLessThanOrEqual(READABLE);
      },
      RUN_MS,
    );
});
