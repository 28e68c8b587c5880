/**
 * @module contract/judge
 * The one judge of an answer's meaning, beyond its schemas: page arithmetic, identifiers equal to
 * the path's, hrefs that lead to an operation, the headers a hand-made answer may carry, and a
 * 429's two waits agreeing. Pure functions over JSON: the contract suite calls them on what a
 * target answered, the mock on what a stub or a record would make it answer, so the two cannot
 * disagree (checkResponse in ../check-response.ts is the same for statuses, headers and schemas).
 */
export type { Judgement } from './finding.js';
export * from './pagination.js';
export * from './identity.js';
export * from './hrefs.js';
export * from './headers.js';
export * from './rate-limit.js';
export { MAX_CONTROL_DEPTH, depthOf, nestsDeeper, defineMember } from './json.js';
