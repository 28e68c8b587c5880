/**
 * @module state/stubs/store
 * The stubs behind one small interface: in this process (memory.ts) or shared by a fleet
 * (redis.ts), each `remaining` used up exactly once across every instance. Taking one may answer
 * synchronously, so the memory store costs the hot path no promise.
 */
import type { MatchFacts } from './match.js';
import type { Stub } from './stubs.js';

export interface StubsStore {
  /** False only when no stub is kept anywhere (lets a request skip the lookup). */
  mayHaveStubs(): boolean;
  /** The newest stub that matches, one of its `remaining` used up exactly once across every instance. */
  take(request: MatchFacts): Stub | undefined | Promise<Stub | undefined>;
  /** Keeps a stub; a StoreUnavailableError while a shared store is away. */
  add(stub: Stub): Promise<Stub>;
  /** Removes one stub, or every stub; resolves to how many were removed. */
  remove(id?: string): Promise<number>;
  /** Stubs oldest first, each with what it has left (absent: until removed). */
  list(): Promise<Stub[]>;
}
