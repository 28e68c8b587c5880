/**
 * @module state/limits/store
 * The rate-limit windows of the four kinds (requests per minute and per hour, concurrent
 * connections, bytes) behind one small interface: in this process (memory.ts) or shared by a fleet
 * (redis.ts). A request's admit may answer synchronously, so the memory store costs the hot path
 * no promise.
 */
import type { LimitKind, LimitSnapshot } from './rate-limiter.js';

/** A request's concurrent-connection slot: given back exactly once, with the body bytes it sent. */
export interface SlotHandle {
  release(bytesSent: number): void;
}

export type Admission = (
  | { ok: true; limit: number; remaining: number; slot: SlotHandle }
  | { ok: false; kind: LimitKind; retryAfterSeconds: number; limit: number }
) & {
  /** True when a shared store was unreachable and this instance decided on its own state. */
  local?: boolean;
};

/** A key's counters; `startedAt` (when each window opened) where the store knows it. */
export type LimitUsage = LimitSnapshot;

export interface LimitsStore {
  /** Counts one request for a key (all four kinds, one atomic step) or says which limit refuses it. */
  admit(keyName: string, tierName: string): Admission | Promise<Admission>;
  /** Forgets one key's windows and slots, or every key's. */
  reset(keyName?: string): Promise<void>;
  /** Every key's counters. */
  usage(): Promise<Record<string, LimitUsage>>;
}
