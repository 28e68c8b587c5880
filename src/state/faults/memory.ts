/**
 * @module state/faults/memory
 * The armed faults of one process: the memory store owns its book, and every decision is
 * synchronous (one process, one thread). A shared store keeps one too, to answer from while its
 * server is away.
 */
import {
  faultHits,
  MAX_ARMED_FAULTS,
  newArmedFault,
  tooManyArmed,
  type ArmedFault,
  type FaultAction,
  type FaultMatch,
  type RequestFacts,
} from './faults.js';
import type { FaultsStore } from './store.js';

/**
 * The faults armed in one process: each for the next N requests its match hits, oldest first. The
 * memory store keeps its faults here (the seeded random policy is the server's:
 * src/server/faults/fault-plan.ts).
 */
export class ArmedFaultBook {
  #armed: ArmedFault[] = [];

  arm(match: FaultMatch, count: number, action: FaultAction): ArmedFault {
    const fault = newArmedFault(match, count, action);
    if (this.#armed.length >= MAX_ARMED_FAULTS) throw tooManyArmed();
    this.#armed.push(fault);
    return fault;
  }

  disarm(id?: string): number {
    const before = this.#armed.length;
    this.#armed = id === undefined ? [] : this.#armed.filter((f) => f.id !== id);
    return before - this.#armed.length;
  }

  /** Copies: a caller cannot change what is armed. */
  armed(): ArmedFault[] {
    return this.#armed.map((f) => ({
      ...f,
      match: structuredClone(f.match),
      action: { ...f.action },
    }));
  }

  /** How many faults are armed here. */
  get armedCount(): number {
    return this.#armed.length;
  }

  /**
   * Uses up one count of the oldest armed fault that matches the request, or undefined; a forced
   * status only applies where the operation declares it.
   */
  takeArmed(request: RequestFacts): FaultAction | undefined {
    const armed = this.#armed.find((f) => faultHits(f, request));
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.#armed = this.#armed.filter((f) => f !== armed);
    return { ...armed.action };
  }
}

export class MemoryFaults implements FaultsStore {
  /** The faults armed in this process. */
  readonly book = new ArmedFaultBook();

  mayHaveArmed(): boolean {
    return this.book.armedCount > 0;
  }
  take(request: RequestFacts): FaultAction | undefined {
    return this.book.takeArmed(request);
  }
  async arm(match: FaultMatch, count: number, action: FaultAction) {
    return this.book.arm(match, count, action);
  }
  async disarm(id?: string) {
    return this.book.disarm(id);
  }
  async armed() {
    return this.book.armed();
  }
}
