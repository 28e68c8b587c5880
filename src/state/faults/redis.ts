/**
 * @module state/faults/redis
 * The armed faults shared by a fleet in one Redis: the oldest that hits a request is chosen here
 * with the one matcher, its count taken in Redis atomically (scripts.ts). Redis away: only this
 * instance's own armed faults count, and arming is refused (StoreUnavailableError).
 */
import { RedisLink, StoreUnavailableError } from '../shared/fail-over.js';
import {
  ActionError,
  MAX_ARMED_FAULTS,
  faultHits,
  newArmedFault,
  tooManyArmed,
  type ArmedFault,
  type FaultAction,
  type FaultMatch,
  type RequestFacts,
} from './faults.js';
import type { MemoryFaults } from './memory.js';
import { ARM, DISARM, TAKE_FAULT } from './scripts.js';
import type { FaultsStore } from './store.js';

interface FaultScripts {
  takeFault(...args: string[]): Promise<[string | null, number, number]>;
  arm(...args: (string | number)[]): Promise<number>;
  disarm(...args: string[]): Promise<number>;
}

/** Too many armed: the caller's mistake, not an outage. */
const refused = (error: unknown) => error instanceof ActionError;

export class RedisFaults implements FaultsStore {
  readonly #link: RedisLink;
  readonly #redis: FaultScripts;
  readonly #local: MemoryFaults;

  constructor(link: RedisLink, local: MemoryFaults) {
    this.#link = link;
    this.#redis = link.define<FaultScripts>({
      takeFault: { numberOfKeys: 3, lua: TAKE_FAULT },
      arm: { numberOfKeys: 4, lua: ARM },
      disarm: { numberOfKeys: 3, lua: DISARM },
    });
    this.#local = local;
  }

  mayHaveArmed(): boolean {
    // Redis away: only this instance's own armed faults count.
    return this.#link.up ? this.#link.seen.armed > 0 : this.#local.mayHaveArmed();
  }

  /**
   * The oldest armed fault that hits the request, chosen here with the one matcher, its count
   * taken in Redis atomically; when another instance took its last count first, the next one.
   */
  take(request: RequestFacts): Promise<FaultAction | undefined> {
    return this.#link.shared(
      async () => {
        for (const fault of await this.armed()) {
          if (!faultHits(fault, request)) continue;
          const [raw, left, repairs] = await this.#redis.takeFault(...this.#keys(), fault.id);
          this.#link.seen.armed = left;
          this.#link.noteRepairs(repairs, 'armed faults');
          if (raw !== null) return fault.action;
        }
        return undefined;
      },
      () => this.#local.take(request),
      [],
      refused,
    );
  }

  /** Arms a fault in Redis; Redis away, it is refused (StoreUnavailableError), not armed here. */
  async arm(match: FaultMatch, count: number, action: FaultAction): Promise<ArmedFault> {
    const fault = newArmedFault(match, count, action);
    const k = this.#link.keys;
    return this.#link.shared(
      async () => {
        const { remaining, ...kept } = fault;
        const added = await this.#redis.arm(
          ...this.#keys(),
          k.faultSequence,
          fault.id,
          JSON.stringify(kept),
          remaining,
          MAX_ARMED_FAULTS,
          this.#link.options.keepMs,
        );
        if (added !== 1) throw tooManyArmed();
        this.#link.seen.armed += 1;
        return fault;
      },
      () => {
        throw new StoreUnavailableError('fault');
      },
      [],
      refused,
    );
  }

  async disarm(id?: string): Promise<number> {
    const local = await this.#local.disarm(id);
    return this.#link.shared(
      () => this.#redis.disarm(...this.#keys(), ...(id === undefined ? [] : [id])),
      () => local,
      [],
      refused,
    );
  }

  /** The armed faults, each read as the admin API reads one; one it refuses is skipped and counted. */
  async armed(): Promise<ArmedFault[]> {
    const link = this.#link;
    return link.shared(
      async () => {
        const out: ArmedFault[] = [];
        for (const { raw, left } of await link.listKept(this.#keys())) {
          const fault = link.read(raw, (entry) => link.readers.fault(entry), 'an armed fault');
          if (fault) out.push({ ...fault, remaining: left });
        }
        link.seen.armed = out.length;
        return out;
      },
      () => this.#local.armed(),
      [],
      refused,
    );
  }

  #keys(): [string, string, string] {
    const k = this.#link.keys;
    return [k.faultOrder, k.faults, k.faultCounts];
  }
}
