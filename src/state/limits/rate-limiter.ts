/**
 * @module state/limits/rate-limiter
 * Per-key limits of the four kinds the source names: requests per minute, requests per hour,
 * concurrent connections and data transfer. Fixed windows that open at a key's first request,
 * driven by an injected clock. State exists only for configured keys (unknown keys are refused
 * before they reach here), so memory is bounded by the keys file, whatever clients send.
 */
import type { Tier } from '../../api/types.js';
import type { Clock } from '../clock/clock.js';

// A tier is a public type (the library's `rateLimit` option), defined in api/types.ts.
export type { Tier };

const MS_PER_SECOND = 1000;

export interface Window {
  startedAt: number;
  used: number;
}

type KeyState = LimitWindows;

export type LimitKind =
  'requests per minute' | 'requests per hour' | 'concurrent connections' | 'data transfer';

/** A request's concurrent-connection slot: released once, when its response is done, with the body bytes it sent. */
export class Slot {
  #released = false;
  constructor(private readonly state: KeyState) {}
  /** Frees the slot and charges `bytesSent` to the transfer window; later calls do nothing. */
  release(bytesSent: number): void {
    if (this.#released) return;
    this.#released = true;
    this.state.inFlight -= 1;
    this.state.transfer.used += bytesSent;
  }
}

export type Admission =
  | { ok: true; limit: number; remaining: number; slot: Slot }
  | { ok: false; kind: LimitKind; retryAfterSeconds: number; limit: number };

type Refusal = Extract<Admission, { ok: false }>;

/** Opens a new window when the current one has run out. */
function roll(window: Window, now: number, seconds: number): void {
  if (now - window.startedAt >= seconds * MS_PER_SECOND) {
    window.startedAt = now;
    window.used = 0;
  }
}

/** The refusal when `window` is used up, else undefined. */
function refusal(
  kind: LimitKind,
  window: Window,
  limit: number,
  seconds: number,
  now: number,
  announced: number,
): Refusal | undefined {
  if (window.used < limit) return undefined;
  const waitMs = window.startedAt + seconds * MS_PER_SECOND - now;
  return {
    ok: false,
    kind,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / MS_PER_SECOND)),
    limit: announced,
  };
}

/** The windows and slots of one key, as the limiter keeps them (epoch ms on the mock's clock). */
export interface LimitWindows {
  minute: Window;
  hour: Window;
  transfer: Window;
  inFlight: number;
}

/**
 * The limit that refuses a key's next request at `now` (its windows already rolled), else
 * undefined: what `admit` answers, and what the QA console shows as the next `Retry-After`.
 */
export function nextRefusal(tier: Tier, state: LimitWindows, now: number): Refusal | undefined {
  const refused =
    refusal(
      'requests per minute',
      state.minute,
      tier.requestsPerMinute,
      tier.minuteWindowSeconds,
      now,
      tier.requestsPerMinute,
    ) ??
    refusal(
      'requests per hour',
      state.hour,
      tier.requestsPerHour,
      tier.hourWindowSeconds,
      now,
      tier.requestsPerHour,
    ) ??
    // A transfer refusal announces the request limit: `x-ratelimit-limit` counts requests.
    refusal(
      'data transfer',
      state.transfer,
      tier.bytesPerWindow,
      tier.transferWindowSeconds,
      now,
      tier.requestsPerMinute,
    );
  if (refused) return refused;
  if (state.inFlight >= tier.concurrentConnections)
    // A connection frees up as soon as a request finishes; one second is the honest minimum.
    return {
      ok: false,
      kind: 'concurrent connections',
      retryAfterSeconds: 1,
      limit: tier.requestsPerMinute,
    };
  return undefined;
}

/** One key's counters, and when each window opened (epoch ms on the mock's clock). */
export interface LimitSnapshot {
  minute: number;
  hour: number;
  bytes: number;
  inFlight: number;
  startedAt?: { minute: number; hour: number; transfer: number };
}

export class RateLimiter {
  readonly #states = new Map<string, KeyState>();

  constructor(
    private readonly tiers: ReadonlyMap<string, Tier>,
    private readonly clock: Clock,
  ) {}

  /** Counts one request for `keyName` or says which limit refuses it and for how long. */
  admit(keyName: string, tierName: string): Admission {
    const tier = this.tiers.get(tierName);
    if (!tier) throw new Error(`unknown tier ${tierName}`);
    const now = this.clock.now();
    const state = this.#stateOf(keyName, now);
    roll(state.minute, now, tier.minuteWindowSeconds);
    roll(state.hour, now, tier.hourWindowSeconds);
    roll(state.transfer, now, tier.transferWindowSeconds);
    const refused = nextRefusal(tier, state, now);
    if (refused) return refused;
    state.minute.used += 1;
    state.hour.used += 1;
    state.inFlight += 1;
    // Report the request window closest to exhaustion, so `remaining` is what the client can really send.
    const minuteLeft = tier.requestsPerMinute - state.minute.used;
    const hourLeft = tier.requestsPerHour - state.hour.used;
    return hourLeft < minuteLeft
      ? { ok: true, limit: tier.requestsPerHour, remaining: hourLeft, slot: new Slot(state) }
      : { ok: true, limit: tier.requestsPerMinute, remaining: minuteLeft, slot: new Slot(state) };
  }

  /** Forgets every key's counters (or one key's). */
  reset(keyName?: string): void {
    if (keyName === undefined) this.#states.clear();
    else this.#states.delete(keyName);
  }

  /** Read-only view for the admin endpoint: what each window used, and when each opened. */
  snapshot(): Record<string, LimitSnapshot> {
    const out: Record<string, LimitSnapshot> = {};
    for (const [name, s] of this.#states)
      out[name] = {
        minute: s.minute.used,
        hour: s.hour.used,
        bytes: s.transfer.used,
        inFlight: s.inFlight,
        startedAt: {
          minute: s.minute.startedAt,
          hour: s.hour.startedAt,
          transfer: s.transfer.startedAt,
        },
      };
    return out;
  }

  #stateOf(keyName: string, now: number): KeyState {
    let state = this.#states.get(keyName);
    if (!state) {
      state = {
        minute: { startedAt: now, used: 0 },
        hour: { startedAt: now, used: 0 },
        transfer: { startedAt: now, used: 0 },
        inFlight: 0,
      };
      this.#states.set(keyName, state);
    }
    return state;
  }
}
