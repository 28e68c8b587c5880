/**
 * @module web-data-api-double
 * The package's public API, and only that: the mock (on a port, or in process), its QA controls,
 * the contract suite as a function, the key-holding proxy, and the API's own types (generated from
 * the document: `paths`, `components`, `operations`, a named type per schema, `OperationId`,
 * `Release`, `ErrorBody`). Everything else is internal and may change between versions.
 * docs/library.md has a runnable example of each.
 */
export { startMock, createMockApp } from './api/mock.js';
export { qaControls, QaControlError, VerificationError } from './api/qa.js';
// The suite and the proxy load on first call (api/on-demand.ts).
export { runContract, startProxy } from './api/on-demand.js';
// Every public type, from the one module meant for them (its closure needs no @types/node).
export type * from './api/types.js';
