/**
 * @module web-data-api-double
 * The package's public API, and only that: the mock (on a port, or in process), its QA controls,
 * the contract suite as a function, the key-holding proxy, and the API's own types (generated from
 * the document: `paths`, `components`, `operations`, a named type per schema, `OperationId`,
 * `Release`, `ErrorBody`). Everything else is internal and may change between versions.
 * docs/library.md has a runnable example of each.
 */
export {
  startMock,
  createMockApp,
  type MockOptions,
  type StartMockOptions,
  type MockAppOptions,
  type MockHandle,
  type RunningMock,
  type MockAppHandle,
  type MockKeys,
} from './api/mock.js';
export {
  qaControls,
  QaControlError,
  VerificationError,
  type Match,
  type StubToAdd,
  type QaControls,
  type QaControlsOptions,
  type FaultToArm,
  type JournalRecord,
  type JournalRecords,
  type RecordControls,
  type RecordFamily,
  type RecordEditEntry,
  type RecordPutResult,
} from './api/qa.js';
// The suite and the proxy load on first call (api/on-demand.ts); their types come from their modules.
export { runContract, startProxy } from './api/on-demand.js';
export type {
  RunContractOptions,
  ContractReport,
  Finding,
  CoverageCell,
} from '../contract-tests/run.js';
export type { StartProxyOptions, RunningProxy, ProxyInput } from './proxy/index.js';
export type { Examples, KeyPurpose } from './server/examples.js';
export type { Tier } from './server/tiers.js';
export type { LatencySpec, RandomFaultSpec, FaultAction } from './server/qa/actions.js';
export type { ArmedFault, FaultMatch } from './state/faults.js';
export type { paths, components, operations } from './contract/types.gen.js';
export type * from './contract/named-types.gen.js';
