/**
 * @module rate-limiter
 * Per-key limits of the four kinds the source names: requests per minute, requests per hour,
 * concurrent connections and data transfer. Fixed windows that open at a key's first request,
 * driven by an injected clock. State exists only for configured keys (unknown keys are refused
 * before they reach here), so memory is bounded by the keys file, whatever clients send.
 */
import type { Clock } from './clock.js';
import type { Tier } from './tiers.js';

const MS_PER_SECOND = 1000;

interface Window {
  startedAt: number;
  used: number;
}

interface KeyState {
  minute: Window;
  hour: Window;
  transfer: Window;
  inFlight: number;
}

export type LimitKind = 'requests per minute' | 'requests per hour' | 'concurrent connections' | 'data transfer';

export type Admission =
  | { ok: true; limit: number; remaining: number; release: (bytesSent: number) => void }
  | { ok: false; kind: LimitKind; retryAfterSeconds: number; limit: number };

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
    const windows: [LimitKind, Window, number, number][] = [
      ['requests per minute', state.minute, tier.requestsPerMinute, tier.minuteWindowSeconds],
      ['requests per hour', state.hour, tier.requestsPerHour, tier.hourWindowSeconds],
      ['data transfer', state.transfer, tier.bytesPerWindow, tier.transferWindowSeconds],
    ];
    for (const [, window, , seconds] of windows) {
      if (now - window.startedAt >= seconds * MS_PER_SECOND) {
        window.startedAt = now;
        window.used = 0;
      }
    }
    for (const [kind, window, limit, seconds] of windows) {
      if (window.used >= limit) {
        const waitMs = window.startedAt + seconds * MS_PER_SECOND - now;
        return { ok: false, kind, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / MS_PER_SECOND)), limit: kind === 'data transfer' ? tier.requestsPerMinute : limit };
      }
    }
    if (state.inFlight >= tier.concurrentConnections) {
      // A connection frees up as soon as a request finishes; one second is the honest minimum.
      return { ok: false, kind: 'concurrent connections', retryAfterSeconds: 1, limit: tier.requestsPerMinute };
    }
    state.minute.used += 1;
    state.hour.used += 1;
    state.inFlight += 1;
    // Report the request window closest to exhaustion, so `remaining` is what the client can really send.
    const minuteLeft = tier.requestsPerMinute - state.minute.used;
    const hourLeft = tier.requestsPerHour - state.hour.used;
    const [limit, remaining] = hourLeft < minuteLeft ? [tier.requestsPerHour, hourLeft] : [tier.requestsPerMinute, minuteLeft];
    let released = false;
    return {
      ok: true,
      limit,
      remaining,
      release: (bytesSent) => {
        if (released) return;
        released = true;
        state.inFlight -= 1;
        state.transfer.used += bytesSent;
      },
    };
  }

  /** Forgets every key's counters (or one key's). */
  reset(keyName?: string): void {
    if (keyName === undefined) this.#states.clear();
    else this.#states.delete(keyName);
  }

  /** Read-only view for the admin endpoint. */
  snapshot(): Record<string, { minute: number; hour: number; bytes: number; inFlight: number }> {
    const out: Record<string, { minute: number; hour: number; bytes: number; inFlight: number }> = {};
    for (const [name, s] of this.#states) out[name] = { minute: s.minute.used, hour: s.hour.used, bytes: s.transfer.used, inFlight: s.inFlight };
    return out;
  }

  #stateOf(keyName: string, now: number): KeyState {
    let state = this.#states.get(keyName);
    if (!state) {
      state = { minute: { startedAt: now, used: 0 }, hour: { startedAt: now, used: 0 }, transfer: { startedAt: now, used: 0 }, inFlight: 0 };
      this.#states.set(keyName, state);
    }
    return state;
  }
}
