/**
 * @module state/clock/store
 * The QA clock's offset behind one small interface: this process's (memory.ts) or the fleet's
 * (redis.ts), which every instance's clock follows.
 */
export interface ClockStore {
  /** Moves the QA clock forward for every instance; resolves to the new offset in ms. */
  advance(ms: number): Promise<number>;
  offsetMs(): Promise<number>;
  /** Puts the QA clock back to its base (offset 0). */
  reset(): Promise<void>;
}
