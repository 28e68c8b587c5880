/**
 * @module evidence
 * What the rest of the project (the contract suite above all) may use of the evidence layer: the
 * observed profile, folding an answer into it, drift between two profiles, the fact ledger and the
 * proposed change (the meta-tests observe a target with src/testing/observe-target.ts). Everything else in
 * src/evidence is internal to it.
 */
export * from './profile.js';
export * from './observe.js';
export * from './drift.js';
export * from './declared.js';
export * from './facts.js';
export * from './ledger.js';
export * from './patch.js';
