import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './src/testing/longest-first.js';

/**
 * The mock's own tests in three projects, run together by `npm test` (`vitest run`), one by one
 * by `npm run test:unit`, `test:e2e` and `test:package`:
 * - unit: pure modules and in-process apps (no socket, no process, no Redis; src/testing/unit-guard.ts
 *   refuses them), all files in shared worker threads so the graph is imported once per worker:
 *   the inner loop;
 * - e2e: real sockets, spawned commands, redis-server, Chromium, in worker processes that files
 *   share too, sparing each file a fresh process and module graph (each file closes what it starts);
 * - package: the compiled package as a user gets it (npx, npm pack and an install), a process each.
 * Every test file not listed below is a unit test; a listed one that no longer needs its socket or
 * process can leave the list. The contract suite itself has its own config (contract-tests/).
 */
const END_TO_END = [
  'bench/shutdown.test.ts',
  'contract-tests/meta/bounds.test.ts',
  'contract-tests/meta/cli.test.ts',
  'contract-tests/meta/drift-once.test.ts',
  'contract-tests/meta/drift.test.ts',
  'contract-tests/meta/full-mode.test.ts',
  'contract-tests/meta/evidence-drift.test.ts',
  'contract-tests/meta/hostile-night.test.ts',
  'contract-tests/meta/invalid-utf8.test.ts',
  'contract-tests/meta/ledger-page.test.ts',
  'contract-tests/meta/ledger.test.ts',
  'contract-tests/meta/nightly-drift.test.ts',
  'contract-tests/meta/release-matrix.test.ts',
  'contract-tests/meta/reports.test.ts',
  'contract-tests/meta/variants.test.ts',
  'contract-tests/meta/vary.test.ts',
  'contract-tests/meta/verdict.test.ts',
  'contract-tests/meta/workflows.test.ts',
  'src/api/mock-state.test.ts',
  'src/api/on-demand.test.ts',
  'src/api/runners.test.ts',
  'src/api/vary.test.ts',
  'src/server/cli/cli-release.test.ts',
  'src/server/cli/cli.test.ts',
  'src/server/cli/detach.test.ts',
  'src/evidence/cli.test.ts',
  'src/evidence/ledger-command.test.ts',
  'src/files/files.test.ts',
  'src/dataset/files.test.ts',
  'src/net/listen.test.ts',
  'src/proxy/args.test.ts',
  'src/proxy/boundaries.test.ts',
  'src/proxy/browser.test.ts',
  'src/proxy/hardening.test.ts',
  'src/proxy/hostile.test.ts',
  'src/proxy/mock.e2e.test.ts',
  'src/proxy/profile-writer.test.ts',
  'src/proxy/proxy.test.ts',
  'src/proxy/recording.test.ts',
  'src/readme.test.ts',
  'src/recordings/load.test.ts',
  'src/server/body-reading.test.ts',
  'src/server/console/console.test.ts',
  'src/server/docs-page/docs.test.ts',
  'src/server/http.test.ts',
  'src/server/listen.test.ts',
  'src/server/pipeline/auth.test.ts',
  'src/server/pipelining.test.ts',
  'src/server/admin/admin-bounds.test.ts',
  'src/server/admin/control-plane.test.ts',
  'src/server/faults/arm-fault.test.ts',
  'src/server/admin/curl-smoke.test.ts',
  'src/server/faults/fault-match.test.ts',
  'src/server/journal/journal.test.ts',
  'src/server/admin/qa-controls.test.ts',
  'src/server/records/seed.test.ts',
  'src/server/records/records.test.ts',
  'src/server/stubs/stubs.test.ts',
  'src/server/journal/query-secrets.test.ts',
  'src/server/robustness.test.ts',
  'src/server/scopes/proof.test.ts',
  'src/server/scopes/redis.test.ts',
  'src/state/shared/turn.test.ts',
  'src/state/redis-data.test.ts',
  'src/state/redis-poison.test.ts',
  'src/state/records/redis.test.ts',
  'src/state/redis.test.ts',
];
const PACKAGE = ['src/package/**/*.test.ts'];
const ALL = ['src/**/*.test.ts', 'contract-tests/meta/**/*.test.ts', 'bench/**/*.test.ts'];

/**
 * vitest's default is one worker per core but one, a single worker on a 2-core machine: the
 * end-to-end files mostly wait on the processes and sockets they start, so two keep it busy.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: [...END_TO_END, ...PACKAGE],
          pool: 'threads',
          isolate: false,
          setupFiles: ['src/testing/unit-guard.ts'],
          // Its own group, run first: a shared worker is kept only while unit files follow each
          // other (vitest ends it when the next file in the queue is another project's).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: END_TO_END,
          pool: 'forks',
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: PACKAGE,
          pool: 'forks',
          // One pack and one install for every file of the project (src/package/global-setup.ts).
          globalSetup: ['src/package/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
