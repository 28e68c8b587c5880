/**
 * @module state/limits/redis
 * The rate-limit windows and slots shared by a fleet in one Redis. The admits and slot releases
 * of one turn of the event loop go in one call, in the order they came (shared/turn.ts). A slot
 * is a lease that this instance renews while the request lives, so a crashed instance's slots
 * free themselves when their leases end. Redis away: this instance decides on its own windows
 * (`local`), and a slot's lease runs out on its own.
 */
import type { AdjustableClock } from '../clock/clock.js';
import { isSpoiledData, wholeNumber, type RedisLink } from '../shared/fail-over.js';
import type { TurnSender } from '../shared/turn-sender.js';
import type { WaitingAdmit } from '../shared/turn.js';
import type { MemoryLimits } from './memory.js';
import type { LimitKind, Tier } from './rate-limiter.js';
import { RENEW } from './scripts.js';
import type { Admission, LimitsStore, LimitUsage, SlotHandle } from './store.js';

interface LimitScripts {
  renew(...args: (string | number)[]): Promise<number>;
}

const KINDS: readonly LimitKind[] = [
  'requests per minute',
  'requests per hour',
  'data transfer',
  'concurrent connections',
];

export class RedisLimits implements LimitsStore {
  readonly #link: RedisLink;
  readonly #redis: LimitScripts;
  readonly #turns: TurnSender<Admission>;
  readonly #local: MemoryLimits;
  readonly #tiers: ReadonlyMap<string, Tier>;
  readonly #clock: AdjustableClock;
  /** Live leases of this instance: lease number -> key name (renewed by the heartbeat). */
  readonly #leases = new Map<number, string>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    link: RedisLink,
    turns: TurnSender<Admission>,
    parts: { local: MemoryLimits; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
  ) {
    this.#link = link;
    this.#redis = link.define<LimitScripts>({ renew: { numberOfKeys: 1, lua: RENEW } });
    this.#turns = turns;
    this.#local = parts.local;
    this.#tiers = parts.tiers;
    this.#clock = parts.clock;
    this.#heartbeat = setInterval(() => this.#renew(), Math.max(50, link.options.leaseMs / 3));
    this.#heartbeat.unref();
  }

  admit(keyName: string, tierName: string): Admission | Promise<Admission> {
    if (!this.#link.up) return { ...this.#local.admit(keyName, tierName), local: true };
    const tier = this.#tiers.get(tierName);
    if (!tier) throw new Error(`unknown tier ${tierName}`);
    const baseNow = this.#clock.now() - this.#clock.offsetMs;
    return this.#turns.open().admit(keyName, tierName, tier, baseNow);
  }

  /** Redis away: an admit of a turn decided on this instance's own windows. */
  admitHere(a: WaitingAdmit<Admission>): Admission {
    return { ...this.#local.admit(a.keyName, a.tierName), local: true };
  }

  /** Called once per slot (LeasedSlot guards it). */
  giveBack(keyName: string, lease: number, bytes: number): void {
    this.#leases.delete(lease);
    if (!this.#link.up) return; // the lease runs out on its own; the bytes are not charged
    this.#turns.open().release(keyName, lease, bytes);
  }

  /** An admit's answer from the turn's reply: code 1 or 2 admitted, -1 to -4 refused by that kind. */
  answer(a: WaitingAdmit<Admission>, code: number, value: number): Admission {
    const { tier } = a;
    if (code > 0) {
      this.#leases.set(a.lease, a.keyName);
      return {
        ok: true,
        limit: code === 2 ? tier.requestsPerHour : tier.requestsPerMinute,
        remaining: wholeNumber(value),
        slot: new LeasedSlot(this, a.keyName, a.lease),
      };
    }
    const kind = KINDS[-code - 1];
    // As the in-memory limiter: a refusal announces the request limit of the window that refused.
    const limit = kind === 'requests per hour' ? tier.requestsPerHour : tier.requestsPerMinute;
    return { ok: false, kind, retryAfterSeconds: Math.max(1, wholeNumber(value)), limit };
  }

  #renew(): void {
    if (!this.#link.up || this.#leases.size === 0) return;
    const byKey = new Map<string, string[]>();
    const prefix = this.#turns.leasePrefix;
    for (const [lease, key] of this.#leases)
      byKey.set(key, [...(byKey.get(key) ?? []), prefix + lease]);
    for (const [key, ids] of byKey)
      this.#redis
        .renew(this.#link.keys.slots(key), this.#link.options.leaseMs, ...ids)
        .then((repairs) => this.#link.noteRepairs(repairs, `slots of ${key}`))
        .catch((error: unknown) => this.#link.failed(error));
  }

  async reset(keyName?: string): Promise<void> {
    await this.#local.reset(keyName);
    const { keys: k, redis } = this.#link;
    await this.#link.shared(
      async () => {
        const keys =
          keyName === undefined
            ? [...(await this.#link.scan(k.allWindows)), ...(await this.#link.scan(k.allSlots))]
            : [k.windows(keyName), k.slots(keyName)];
        if (keys.length > 0) await redis.del(...keys);
      },
      () => undefined,
    );
  }

  async usage(): Promise<Record<string, LimitUsage>> {
    const { keys: k, redis } = this.#link;
    return this.#link.shared(
      async () => {
        const out: Record<string, LimitUsage> = {};
        const prefix = k.windows('');
        for (const hashKey of await this.#link.scan(k.allWindows)) {
          const name = hashKey.slice(prefix.length);
          try {
            const [mu, hu, tu] = await redis.hmget(hashKey, 'mu', 'hu', 'tu');
            const inFlight = await redis.zcount(k.slots(name), `(${Date.now()}`, '+inf');
            Object.defineProperty(out, name, {
              enumerable: true,
              value: {
                minute: wholeNumber(Number(mu)),
                hour: wholeNumber(Number(hu)),
                bytes: wholeNumber(Number(tu)),
                inFlight,
              },
            });
          } catch (error) {
            // A key of the wrong type under the prefix: left out of the list (the next admit repairs it).
            if (!isSpoiledData(error)) throw error;
            this.#link.noteRepairs(1, `limits of ${name}`);
          }
        }
        return out;
      },
      () => this.#local.usage(),
    );
  }

  /** No more renewals; what is still held is given back (a clean shutdown leaves no slot to its lease). */
  stop(): void {
    clearInterval(this.#heartbeat);
    const held = [...this.#leases];
    this.#leases.clear();
    if (this.#link.up) for (const [id, key] of held) this.#turns.open().release(key, id, 0);
  }
}

/** A slot held in Redis under a lease: given back exactly once. */
class LeasedSlot implements SlotHandle {
  #released = false;
  constructor(
    private readonly store: RedisLimits,
    private readonly keyName: string,
    private readonly lease: number,
  ) {}
  release(bytesSent: number): void {
    if (this.#released) return;
    this.#released = true;
    this.store.giveBack(this.keyName, this.lease, bytesSent);
  }
}
