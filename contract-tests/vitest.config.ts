import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { readOptions } from '../src/suite/support/options.js';
import DriftLastSequencer from '../src/suite/support/sequencer.js';

const options = readOptions();
// The same config runs from the repository (contract-tests/*.ts, through vitest's transform) and
// from the compiled package (dist/contract-tests/*.js); paths are absolute so the run does not
// depend on the working directory, which stays the user's (relative report paths are theirs).
const here = fileURLToPath(import.meta.url);
const dir = dirname(here);
const ext = here.endsWith('.ts') ? 'ts' : 'js';

/**
 * The contract suite: one target (the mock it starts, or CONTRACT_BASE_URL), one file at a time in
 * one worker so the request budget and the politeness towards the target hold for the whole run.
 */
export default defineConfig({
  test: {
    root: dirname(dir),
    dir,
    include: [`*.contract.test.${ext}`],
    // The installed package lives under node_modules, which vitest excludes by default.
    exclude: [],
    globalSetup: [join(dir, '..', 'src', 'suite', 'support', `global-setup.${ext}`)],
    pool: 'forks',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    // The drift file compares everything observed before it: last.
    sequence: { sequencer: DriftLastSequencer },
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: [
      // CONTRACT_CONSOLE=verdict (`npm test`): vitest prints failures only, and the suite's
      // reporter a passing run's one verdict line instead of the summary.
      options.console === 'verdict' ? 'minimal' : 'default',
      ['junit', { outputFile: options.junitFile, suiteName: 'contract' }],
      join(dir, '..', 'src', 'suite', 'support', `reporter.${ext}`),
    ],
  },
});
