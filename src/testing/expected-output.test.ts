/**
 * @module testing/expected-output.test
 * What a test keeps off the terminal is only what it expects: the mock's banner is kept (and handed
 * over), any other write still reaches the stream; the project lines of `npm test`'s reporter say
 * the verdict, the files and the tests.
 */
import { describe, expect, it } from 'vitest';
import { quietly } from './expected-output.js';
import { projectLine } from './quiet-reporter.js';

describe('quietly', () => {
  it('keeps the expected writes and passes every other one through', async () => {
    const reached: string[] = [];
    const kept: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = (chunk: string) => reached.push(chunk) > 0;
    try {
      const value = await quietly(
        async () => {
          process.stdout.write(
            'Web Data API mock (release 1.3.0, seed 1, scale 1) ready in 5 ms\n',
          );
          process.stdout.write('something nobody expected\n');
          return 42;
        },
        undefined,
        (text) => kept.push(text),
      );
      expect(value).toBe(42);
    } finally {
      process.stdout.write = write;
    }
    expect(kept).toEqual(['Web Data API mock (release 1.3.0, seed 1, scale 1) ready in 5 ms\n']);
    expect(reached).toEqual(['something nobody expected\n']);
  });
});

describe('the project line', () => {
  const tally = { left: 0, files: 91, failedFiles: 0, tests: 1203, failed: 0, skipped: 4 };
  it('says the verdict, files and tests of a project in one line', () => {
    expect(projectLine('unit', tally, 100)).toBe(
      ' ✓ unit     91 files, 1203 tests (4 skipped), 100 s',
    );
    expect(projectLine('e2e', { ...tally, failedFiles: 1, failed: 2, skipped: 0 }, 7)).toBe(
      ' ✗ e2e      91 files (1 failed), 1203 tests (2 failed), 7 s',
    );
  });
});
