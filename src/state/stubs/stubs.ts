/**
 * @module state/stubs/stubs
 * Stubs as the state keeps them: plain JSON (the same over the admin API, the library and the
 * Redis store), matched with the one matcher, the newest first. A stub with `remaining` answers
 * that many requests and is then gone; without it, until removed. What a stub answers (its patch
 * or whole answer) was checked against the contract before it was stored (server/qa/stub-request).
 */
import { randomUUID } from 'node:crypto';
import type { RequestMatch } from './match.js';

/** Stubs kept at once: adding more is refused rather than growing without limit. */
export const MAX_STUBS = 1000;
export const MAX_STUB_TIMES = 1_000_000;

/** A whole answer a stub gives. */
export interface StubAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Stub {
  id: string;
  /** Its match, `operationId` always set. */
  match: RequestMatch & { operationId: string };
  /** A JSON Merge Patch (object) or JSON Patch (array) applied to the dataset's answer. */
  patch?: unknown;
  /** A whole answer instead of the dataset's. */
  respond?: StubAnswer;
  /** Requests still to answer; absent: until removed. */
  remaining?: number;
  /** Answers anything, unchecked; the journal marks such answers. */
  unchecked?: boolean;
  /** Inferred facts the answer breaks (allowed, named). */
  warnings?: string[];
}

export const newStub = (stub: Omit<Stub, 'id'>): Stub => ({
  id: randomUUID(),
  ...structuredClone(stub),
});

export class StubLimitError extends Error {
  constructor() {
    super(`at most ${MAX_STUBS} stubs can be kept at once; remove some first`);
  }
}
