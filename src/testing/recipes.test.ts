/**
 * @module testing/recipes.test
 * The count of passed tests a recipe's runs report, in each runner's own words: vitest's totals,
 * node:test's TAP summary (Node 20's default off a terminal) and its spec reporter's (Node 24's).
 */
import { describe, expect, it } from 'vitest';
import { testsPassed } from './recipes.js';

const run = (output: string) => ({ step: 'npx x', status: 0, output });

describe('testsPassed', () => {
  it("reads vitest's totals", () => {
    expect(testsPassed([run(' Test Files  1 passed (1)\n      Tests  2 passed (2)\n')])).toBe(2);
  });

  it("reads node:test's TAP summary and its spec reporter's, and adds the runs", () => {
    const tap = '# tests 2\n# pass 2\n# fail 0\n';
    const spec = '\u2139 tests 3\n\u2139 pass 3\n\u2139 fail 0\n';
    expect(testsPassed([run(tap), run(spec)])).toBe(5);
  });

  it('counts nothing where no runner reported (a recipe whose tests were never found)', () => {
    expect(testsPassed([run('tests 2\npass 2\n'), run('')])).toBe(0);
  });
});
