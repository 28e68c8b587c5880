import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './src/testing/longest-first.js';

/**
 * The mock's own tests in four projects, in two tiers:
 * - `npm test` (the quick tier, about 3 minutes on 2 cores) runs unit and e2e;
 * - `npm run test:proofs` runs proofs and package; CI (`.ci/run`) runs both tiers on every landing,
 *   and a bare `npx vitest run` runs all four.
 * The projects:
 * - unit: pure modules and in-process apps (no socket, no process, no Redis; src/testing/unit-guard.ts
 *   refuses them), all files in shared worker threads so the graph is imported once per worker:
 *   the inner loop (`npm run test:unit`);
 * - e2e: real sockets, spawned commands, redis-server, Chromium, each real component at least
 *   once, in worker processes that files share too, sparing each file a fresh process and module
 *   graph (each file closes what it starts);
 * - proofs: the files that run the whole contract suite or the compiled commands end to end, again
 *   and again (the suite against broken, varied, hostile and older servers over one or two nights,
 *   every release, the scope proof's 8 files x 20 runs x 3 set-ups, the runner recipes): minutes of
 *   CPU each, so they are CI's rather than the inner loop's;
 * - package: the compiled package as a user gets it (npx, npm pack and an install), a process each.
 * Every test file not listed below is a unit test; a listed one that no longer needs its socket or
 * process can leave the list. The contract suite itself has its own config (contract-tests/).
 */
const END_TO_END = [
  'bench/shutdown.test.ts',
  'contract-tests/meta/bounds.test.ts',
  'contract-tests/meta/drift-once.test.ts',
  'contract-tests/meta/drift.test.ts',
  'contract-tests/meta/invalid-utf8.test.ts',
  'contract-tests/meta/ledger.test.ts',
  'contract-tests/meta/variants.test.ts',
  'contract-tests/meta/workflows.test.ts',
  'src/api/mock-state.test.ts',
  'src/api/on-demand.test.ts',
  'src/api/vary.test.ts',
  'src/server/cli/cli-release.test.ts',
  'src/suite/support/preflight.test.ts',
  'src/server/cli/cli.test.ts',
  'src/server/cli/detach.test.ts',
  'src/evidence/cli.test.ts',
  'src/evidence/ledger-command.test.ts',
  'src/files/files.test.ts',
  'src/dataset/files.test.ts',
  'src/net/deadline.test.ts',
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
  'src/server/scopes/redis.test.ts',
  'src/state/shared/turn.test.ts',
  'src/state/redis-data.test.ts',
  'src/state/redis-poison.test.ts',
  'src/state/records/redis.test.ts',
  'src/state/redis.test.ts',
];
const PROOFS = [
  'contract-tests/meta/cli.test.ts',
  'contract-tests/meta/evidence-drift.test.ts',
  'contract-tests/meta/full-mode.test.ts',
  'contract-tests/meta/hostile-night.test.ts',
  'contract-tests/meta/ledger-page.test.ts',
  'contract-tests/meta/nightly-drift.test.ts',
  'contract-tests/meta/release-matrix.test.ts',
  'contract-tests/meta/reports.test.ts',
  'contract-tests/meta/vary.test.ts',
  'contract-tests/meta/verdict.test.ts',
  'src/api/runners.test.ts',
  'src/server/scopes/proof.test.ts',
];
const PACKAGE = ['src/package/**/*.test.ts'];
const ALL = ['src/**/*.test.ts', 'contract-tests/meta/**/*.test.ts', 'bench/**/*.test.ts'];

/**
 * Workers: the unit files keep the cores busy, so one each (vitest's default when not watching).
 * The end-to-end files wait on the processes, sockets and timers they start (e2e alone used 1.55
 * of 2 cores with two workers), so their group gets one more worker than there are cores. vitest
 * takes one count per group (`sequence.groupOrder`).
 */
const CORES = availableParallelism();
const UNIT_WORKERS = Math.max(2, CORES);
const END_TO_END_WORKERS = Math.max(3, CORES + 1);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: [...END_TO_END, ...PROOFS, ...PACKAGE],
          pool: 'threads',
          isolate: false,
          setupFiles: ['src/testing/unit-guard.ts'],
          maxWorkers: UNIT_WORKERS,
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
          maxWorkers: END_TO_END_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs',
          include: PROOFS,
          pool: 'forks',
          isolate: false,
          maxWorkers: END_TO_END_WORKERS,
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
          maxWorkers: END_TO_END_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
