/**
 * @module faults/fault-plan
 * The faults a server run will inject: seeded random faults at given rates and global latency,
 * on top of the faults armed for the next N matching requests (kept in the state layer's
 * ArmedFaultBook, `book`; the arming methods here hand on to it). Decisions are taken in request
 * arrival order from a seeded generator, so the same seed and the same request sequence give the
 * same faults.
 */
import type { FaultAction, LatencySpec, RandomFaultSpec } from './actions.js';
import { seededRandom } from '../../dataset/mulberry32.js';
import {
  ArmedFaultBook,
  type ArmedFault,
  type FaultMatch,
  type RequestFacts,
} from '../../state/faults.js';

export interface FaultPlanOptions {
  seed: number;
  random?: RandomFaultSpec;
  latency?: LatencySpec;
}

export class FaultPlan {
  /** The faults armed in this process (the memory store keeps its faults in it). */
  readonly book = new ArmedFaultBook();
  #random: () => number;
  #latencyRandom: () => number;

  constructor(readonly options: FaultPlanOptions) {
    this.#random = seededRandom(options.seed);
    this.#latencyRandom = seededRandom(options.seed ^ 0x5f3759df);
  }

  arm(match: FaultMatch, count: number, action: FaultAction): ArmedFault {
    return this.book.arm(match, count, action);
  }

  disarm(id?: string): number {
    return this.book.disarm(id);
  }

  armed(): ArmedFault[] {
    return this.book.armed();
  }

  /** Restarts the seeded sequences (same seed) and clears armed faults. */
  reset(): void {
    this.book.disarm();
    this.#random = seededRandom(this.options.seed);
    this.#latencyRandom = seededRandom(this.options.seed ^ 0x5f3759df);
  }

  /** How many faults are armed here. */
  get armedCount(): number {
    return this.book.armedCount;
  }

  /** True when no request can get a fault: nothing armed, no random faults, no added latency. */
  get idle(): boolean {
    return this.book.armedCount === 0 && !this.options.random && !this.options.latency;
  }

  /** Uses up one count of the oldest armed fault that matches the request (ArmedFaultBook). */
  takeArmed(request: RequestFacts): FaultAction | undefined {
    return this.book.takeArmed(request);
  }

  /**
   * The fault for one API request, or undefined: an armed fault first (`armed`, taken from this
   * plan unless a shared store took it), else a seeded random one; global latency on top.
   */
  decide(
    request: RequestFacts,
    armed: FaultAction | undefined = this.takeArmed(request),
  ): FaultAction | undefined {
    let action = armed;
    const random = this.options.random;
    if (random) {
      // One draw per request whatever happens, so the sequence depends only on request order.
      const r = this.#random();
      const amount = this.#random();
      if (!action) {
        if (r < random.errorRate) action = { status: 500 };
        else if (r < random.errorRate + random.delayRate)
          action = {
            delayMs: Math.round(
              random.delay.minMs + amount * (random.delay.maxMs - random.delay.minMs),
            ),
          };
        else if (r < random.errorRate + random.delayRate + random.resetRate)
          action = { reset: true };
      }
    }
    const latency = this.options.latency;
    if (latency) {
      const extra = Math.round(
        latency.minMs + this.#latencyRandom() * (latency.maxMs - latency.minMs),
      );
      action = { ...action, delayMs: (action?.delayMs ?? 0) + extra };
    }
    return action;
  }

  /** True when this plan draws random faults or adds latency (per instance, from its seed). */
  get draws(): boolean {
    return this.options.random !== undefined || this.options.latency !== undefined;
  }
}
