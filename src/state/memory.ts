/**
 * @module state/memory
 * The state of one process, as the mock has always kept it, and the default store: the rate
 * limiter's windows, the fault plan's armed faults, the bounded journal and the adjustable clock,
 * behind the store interface. Every decision is synchronous (one process, one thread), so a
 * request pays no promise for it. A shared store keeps one of these too, to answer from while its
 * server is away.
 */
import type { AdjustableClock } from './clock/clock.js';
import type { Journal } from './journal/journal.js';
import type { ArmedFaultBook, FaultAction, FaultMatch, RequestFacts } from './faults/faults.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { Admission, JournalEntry, StateStore } from './store.js';
import type { MatchFacts } from './stubs/match.js';
import { StubBook, type Stub } from './stubs/stubs.js';
import { MemoryRecordLog, type RecordLog } from './records/records.js';

export class MemoryStore implements StateStore {
  /** Nothing but this process writes its state: nothing to repair. */
  readonly repaired = 0;
  readonly description = 'memory';
  readonly local = false;
  readonly #stubs = new StubBook();

  constructor(
    readonly parts: {
      limiter: RateLimiter;
      plan: ArmedFaultBook;
      journal: Journal;
      clock: AdjustableClock;
    },
  ) {}

  /** What this process keeps came through the admin API's readers already. */
  readEntriesWith(): void {}
  noteSpoiled(): void {}

  get journalCapacity(): number {
    return this.parts.journal.capacity;
  }

  recordLog(): RecordLog {
    return new MemoryRecordLog();
  }

  admit(keyName: string, tierName: string): Admission {
    return this.parts.limiter.admit(keyName, tierName);
  }
  async resetLimits(keyName?: string) {
    this.parts.limiter.reset(keyName);
  }
  async limits() {
    return this.parts.limiter.snapshot();
  }

  mayHaveArmed(): boolean {
    return this.parts.plan.armedCount > 0;
  }
  takeFault(request: RequestFacts): FaultAction | undefined {
    return this.parts.plan.takeArmed(request);
  }
  async arm(match: FaultMatch, count: number, action: FaultAction) {
    return this.parts.plan.arm(match, count, action);
  }
  async disarm(id?: string) {
    return this.parts.plan.disarm(id);
  }
  async armed() {
    return this.parts.plan.armed();
  }

  mayHaveStubs(): boolean {
    return this.#stubs.size > 0;
  }
  takeStub(request: MatchFacts): Stub | undefined {
    return this.#stubs.take(request);
  }
  async addStub(stub: Stub) {
    return this.#stubs.add(stub);
  }
  async removeStubs(id?: string) {
    return this.#stubs.remove(id);
  }
  async stubs() {
    return this.#stubs.list();
  }

  record(entry: JournalEntry): void {
    this.parts.journal.add(entry);
  }
  async journal(n: number) {
    return this.parts.journal.last(n);
  }
  async journalDropped() {
    return this.parts.journal.dropped;
  }
  async clearJournal() {
    this.parts.journal.clear();
  }

  async advanceClock(ms: number) {
    this.parts.clock.advance(ms);
    return this.parts.clock.offsetMs;
  }
  async resetClock() {
    this.parts.clock.reset();
  }
  async clockOffsetMs() {
    return this.parts.clock.offsetMs;
  }

  async close() {}
}
