/**
 * @module faults/fault-plan
 * The faults a server run will inject: seeded random faults at given rates and global latency,
 * on top of the faults armed for the next N matching requests (kept by the faults store,
 * src/state/faults/, which the caller takes one from). Decisions are taken in request arrival
 * order from a seeded generator, so the same seed and the same request sequence give the same
 * faults.
 */
import type { FaultAction, LatencySpec, RandomFaultSpec } from './actions.js';
import { seededRandom } from '../../dataset/mulberry32.js';
import type { RequestFacts } from '../../state/faults/faults.js';

export interface FaultPlanOptions {
  seed: number;
  random?: RandomFaultSpec;
  latency?: LatencySpec;
}

export class FaultPlan {
  #random: () => number;
  #latencyRandom: () => number;

  constructor(readonly options: FaultPlanOptions) {
    this.#random = seededRandom(options.seed);
    this.#latencyRandom = seededRandom(options.seed ^ 0x5f3759df);
  }

  /** Restarts the seeded sequences (same seed); the armed faults are the store's to clear. */
  reset(): void {
    this.#random = seededRandom(this.options.seed);
    this.#latencyRandom = seededRandom(this.options.seed ^ 0x5f3759df);
  }

  /**
   * The fault for one API request, or undefined: an armed fault first (`armed`, taken from the
   * faults store), else a seeded random one; global latency on top.
   */
  decide(request: RequestFacts, armed: FaultAction | undefined): FaultAction | undefined {
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
