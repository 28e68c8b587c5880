/**
 * The proof of scopes (issue 38): eight files in parallel threads against one mock (or two
 * sharing Redis), started once by global-setup.ts. Run by proof.test.ts, not by `npm test` itself.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/testing/scope-proof/*.scoped.ts'],
    globalSetup: ['src/testing/scope-proof/global-setup.ts'],
    pool: 'threads',
    maxWorkers: 8,
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
