import { defineConfig } from 'vitest/config';
import { readOptions } from './support/options.js';

const options = readOptions();

/**
 * The contract suite: one target (the mock it starts, or CONTRACT_BASE_URL), one file at a time in
 * one worker so the request budget and the politeness towards the target hold for the whole run.
 */
export default defineConfig({
  test: {
    include: ['contract-tests/*.contract.test.ts'],
    globalSetup: ['contract-tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: [
      'default',
      ['junit', { outputFile: options.junitFile, suiteName: 'contract' }],
      './contract-tests/support/reporter.ts',
    ],
  },
});
