/**
 * @module meta/baseline-inside.test
 * A baseline report names its profile relative to its own folder, and that is where it stays:
 * `"profile": "../../../../etc/passwd"` is refused with one line naming the report, and nothing
 * of the file it points at is read or shown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBaselineRun } from '../../src/suite/support/baseline.js';

const dir = mkdtempSync(join(tmpdir(), 'baseline-inside-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a baseline report\'s "profile"', () => {
  it("outside the report's folder is refused, and the file is not read", () => {
    const report = join(dir, 'contract-report.json');
    writeFileSync(report, JSON.stringify({ findings: [], profile: '../../../../etc/passwd' }));
    let message = '';
    try {
      readBaselineRun(report);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/its "profile" "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" is outside/);
    expect(message).not.toMatch(/root/);
  });
});
