/**
 * @module api/types
 * Every public type of the package root, in one module: the root re-exports its types from here
 * alone. Whatever these names reach is part of the published declarations, so nothing here may
 * reach a Node, Redis, cache or vitest type: a user without `@types/node` and with `skipLibCheck`
 * off type-checks against them (src/package/installed.test.ts, on the TypeScript range
 * docs/library.md states). Where a type's home reached such types, the cut is structural at that
 * home (examples' input, the report's collected run), not a second copy here.
 */
export type {
  MockOptions,
  StartMockOptions,
  MockAppOptions,
  MockHandle,
  RunningMock,
  MockAppHandle,
  MockKeys,
} from './mock.js';
export type {
  Match,
  StubToAdd,
  QaControls,
  QaControlsOptions,
  FaultToArm,
  JournalRecord,
  JournalRecords,
  RecordControls,
  RecordFamily,
  RecordEditEntry,
  RecordPutResult,
} from './qa.js';
export type { RunContractOptions, ContractReport, Finding, CoverageCell } from '../suite/run.js';
export type { StartProxyOptions, RunningProxy, ProxyInput } from '../proxy/index.js';
export type { Examples, KeyPurpose } from '../server/examples.js';
export type { Tier } from '../server/config/tiers.js';
export type { LatencySpec, RandomFaultSpec, FaultAction } from '../server/faults/actions.js';
export type { ArmedFault, FaultMatch } from '../state/faults/faults.js';
export type { paths, components, operations } from '../contract/types.gen.js';
export type * from '../contract/named-types.gen.js';
