/**
 * @module meta/drift-once.test
 * A field a vendor adds to every record is one undeclared-field finding per operation, status and
 * pointer pattern in a run, however many checks see it (it used to be one per check, which
 * multiplied a release's new fields into hundreds of thousands of findings).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryOperation } from '../../src/suite/checks/operations.js';
import { checkPagination } from '../../src/suite/checks/pagination.js';
import { checkSorting } from '../../src/suite/checks/sorting.js';
import { onList, runChecks, startTarget, type Target } from './harness.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

describe('undeclared fields in a run', () => {
  it('one finding per operation, status and pattern across the checks that see them', async () => {
    const extra = onList('/packages', (b) => b.data!.forEach((r) => (r.newField = 'surprise')));
    const { findings } = await runChecks(
      target,
      [checkEveryOperation, checkPagination, checkSorting],
      { family: 'packages' },
      extra,
    );
    const drift = findings.filter(
      (f) => f.rule === 'undeclared-field' && f.operationId === 'listPackages',
    );
    expect(drift.map((f) => (f.pointer ?? '').replace(/\/\d+\//, '/*/'))).toEqual([
      '/data/*/newField',
    ]);
  });
});
