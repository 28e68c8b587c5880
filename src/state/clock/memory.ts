/**
 * @module state/clock/memory
 * The QA clock of one process: its offset is the adjustable clock's own.
 */
import type { AdjustableClock } from './clock.js';
import type { ClockStore } from './store.js';

export class MemoryClock implements ClockStore {
  constructor(readonly clock: AdjustableClock) {}

  async advance(ms: number) {
    this.clock.advance(ms);
    return this.clock.offsetMs;
  }
  async reset() {
    this.clock.reset();
  }
  async offsetMs() {
    return this.clock.offsetMs;
  }
}
