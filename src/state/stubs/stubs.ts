/**
 * @module state/stubs/stubs
 * Stubs as the state keeps them: plain JSON (the same over the admin API, the library and the
 * Redis store), matched with the one matcher, the newest first. A stub with `remaining` answers
 * that many requests and is then gone; without it, until removed. What a stub answers (its patch
 * or whole answer) was checked against the contract before it was stored (server/qa/stub-request).
 */
import { randomUUID } from 'node:crypto';
import type { Stub, StubAnswer } from '../../api/types.js';

/** Stubs kept at once: adding more is refused rather than growing without limit. */
export const MAX_STUBS = 1000;
export const MAX_STUB_TIMES = 1_000_000;

// The public types of a stub, defined in api/types.ts.
export type { Stub, StubAnswer };

export const newStub = (stub: Omit<Stub, 'id'>): Stub => ({
  id: randomUUID(),
  ...structuredClone(stub),
});

export class StubLimitError extends Error {
  constructor() {
    super(`at most ${MAX_STUBS} stubs can be kept at once; remove some first`);
  }
}
