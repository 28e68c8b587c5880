/**
 * @module state/limits/memory
 * The rate-limit windows of one process: the rate limiter, synchronous.
 */
import type { RateLimiter } from './rate-limiter.js';
import type { Admission, LimitsStore } from './store.js';

export class MemoryLimits implements LimitsStore {
  constructor(readonly limiter: RateLimiter) {}

  admit(keyName: string, tierName: string): Admission {
    return this.limiter.admit(keyName, tierName);
  }
  async reset(keyName?: string) {
    this.limiter.reset(keyName);
  }
  async usage() {
    return this.limiter.snapshot();
  }
}
