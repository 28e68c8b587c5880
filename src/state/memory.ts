/**
 * @module state/memory
 * The state of one process, as the mock has always kept it, and the default: each concern's
 * memory store (limits/, faults/, stubs/, journal/, clock/, records/ memory.ts). Every decision
 * is synchronous (one process, one thread), so a request pays no promise for it. The Redis stores
 * keep one of these too, to answer from while their server is away.
 */
import type { AdjustableClock } from './clock/clock.js';
import { MemoryClock } from './clock/memory.js';
import { MemoryFaults } from './faults/memory.js';
import type { Journal } from './journal/journal.js';
import { MemoryJournal } from './journal/memory.js';
import { MemoryLimits } from './limits/memory.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import { MemoryRecords } from './records/memory.js';
import type { Stores } from './stores.js';
import { MemoryStubs } from './stubs/memory.js';

export class MemoryStores implements Stores {
  /** Nothing but this process writes its state: nothing to repair. */
  readonly repaired = 0;
  readonly description = 'memory';
  readonly local = false;
  readonly limits: MemoryLimits;
  readonly faults = new MemoryFaults();
  readonly stubs = new MemoryStubs();
  readonly journal: MemoryJournal;
  readonly clock: MemoryClock;
  readonly records = new MemoryRecords();

  constructor(parts: { limiter: RateLimiter; journal: Journal; clock: AdjustableClock }) {
    this.limits = new MemoryLimits(parts.limiter);
    this.journal = new MemoryJournal(parts.journal);
    this.clock = new MemoryClock(parts.clock);
  }

  /** This process's own parts, for tests that look inside synchronously. */
  get parts() {
    return {
      limiter: this.limits.limiter,
      faults: this.faults.book,
      journal: this.journal.journal,
      clock: this.clock.clock,
    };
  }

  /** What this process keeps came through the admin API's readers already. */
  readEntriesWith(): void {}

  async close() {}
}
