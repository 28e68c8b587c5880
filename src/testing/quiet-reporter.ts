/**
 * @module testing/quiet-reporter
 * The reporter of `npm test`'s vitest run (package.json passes it with `--reporter`): one line per
 * project as its last file ends ("✓ unit  91 files, 1199 tests (4 skipped), 100 s"), then vitest's
 * totals. Everything about a failure prints as vitest's `minimal` reporter prints it: the failed
 * files and tests, each error with its diff and stack, and the console output of failed tests
 * only. A passing file prints nothing, so a green run is a dozen lines whatever the number of
 * files. `npx vitest run` without the flag keeps vitest's default reporter: a line per file.
 */
import { MinimalReporter, type TestModule, type TestSpecification } from 'vitest/node';

interface Tally {
  /** Files of the project not yet ended. */
  left: number;
  files: number;
  failedFiles: number;
  tests: number;
  failed: number;
  skipped: number;
}

const emptyTally = (): Tally => ({
  left: 0,
  files: 0,
  failedFiles: 0,
  tests: 0,
  failed: 0,
  skipped: 0,
});

/** One project's line: its verdict, files, tests and the seconds since the run began. */
export function projectLine(name: string, t: Tally, seconds: number): string {
  const ok = t.failedFiles === 0 && t.failed === 0;
  const files = `${t.files} file${t.files === 1 ? '' : 's'}${t.failedFiles ? ` (${t.failedFiles} failed)` : ''}`;
  const notes = [t.failed ? `${t.failed} failed` : '', t.skipped ? `${t.skipped} skipped` : '']
    .filter(Boolean)
    .join(', ');
  const tests = `${t.tests} test${t.tests === 1 ? '' : 's'}${notes ? ` (${notes})` : ''}`;
  return ` ${ok ? '✓' : '✗'} ${(name || '(root)').padEnd(8)} ${files}, ${tests}, ${seconds} s`;
}

export default class QuietReporter extends MinimalReporter {
  #tallies = new Map<string, Tally>();
  #began = Date.now();

  #tally(name: string): Tally {
    let t = this.#tallies.get(name);
    if (!t) this.#tallies.set(name, (t = emptyTally()));
    return t;
  }

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    super.onTestRunStart(specifications);
    this.#began = Date.now();
    this.#tallies.clear();
    for (const spec of specifications) this.#tally(spec.project.name).left++;
  }

  override onTestModuleEnd(testModule: TestModule): void {
    super.onTestModuleEnd(testModule);
    const t = this.#tally(testModule.project.name);
    t.files++;
    if (testModule.state() === 'failed') t.failedFiles++;
    for (const test of testModule.children.allTests()) {
      t.tests++;
      const state = test.result().state;
      if (state === 'failed') t.failed++;
      else if (state === 'skipped') t.skipped++;
    }
    if (--t.left === 0) this.#print(testModule.project.name, t);
  }

  override onTestRunEnd(...args: Parameters<MinimalReporter['onTestRunEnd']>): void {
    // A project whose files did not all end (a cancelled run, a file that never started).
    for (const [name, t] of this.#tallies) if (t.left > 0) this.#print(name, t);
    super.onTestRunEnd(...args);
  }

  #print(name: string, t: Tally): void {
    t.left = 0;
    this.log(projectLine(name, t, Math.round((Date.now() - this.#began) / 1000)));
  }
}
