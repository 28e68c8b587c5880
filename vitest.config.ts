import { defineConfig } from 'vitest/config';

/** Unit and end-to-end tests of the mock's internals, beside their subject; plus the suite's own meta-tests. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'contract-tests/meta/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
