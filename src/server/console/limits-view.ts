/**
 * @module console/limits-view
 * `GET /__mock/limits`: per key, read only, what the rate limiter holds: its tier, each window's
 * limit, use, what is left and when it resets (on the mock's clock, QA offset included), the
 * concurrent-connection slots in use, and the `Retry-After` its next request would get (the
 * limiter's own `nextRefusal`, so the view and the 429 cannot disagree). A store that does not
 * say when a window opened (a shared Redis store) gives counts only: resets and Retry-After null.
 */
import type { KeyRecord } from '../config/keys.js';
import { nextRefusal, type LimitWindows, type Tier } from '../../state/limits/rate-limiter.js';
import type { LimitUsage } from '../../state/limits/store.js';

const MS = 1000;

interface WindowView {
  kind: 'requests per minute' | 'requests per hour' | 'data transfer';
  limit: number;
  used: number;
  left: number;
  windowSeconds: number;
  /** When the window resets (ISO), null when no window is open or the store does not say. */
  resetsAt: string | null;
}

/** One window as it stands at `now`: a window whose time has passed counts 0. */
function windowAt(
  used: number,
  startedAt: number | undefined,
  seconds: number,
  now: number,
): { used: number; startedAt: number; resetsAt: number | null } {
  if (startedAt === undefined) return { used, startedAt: now, resetsAt: null };
  if (now - startedAt >= seconds * MS) return { used: 0, startedAt: now, resetsAt: null };
  return { used, startedAt, resetsAt: startedAt + seconds * MS };
}

/** The view of one key at `now`. */
export function keyLimits(
  key: Pick<KeyRecord, 'name' | 'tier' | 'environment'>,
  tier: Tier,
  usage: LimitUsage | undefined,
  now: number,
) {
  const u = usage ?? { minute: 0, hour: 0, bytes: 0, inFlight: 0 };
  const known = usage === undefined || usage.startedAt !== undefined;
  const minute = windowAt(u.minute, u.startedAt?.minute, tier.minuteWindowSeconds, now);
  const hour = windowAt(u.hour, u.startedAt?.hour, tier.hourWindowSeconds, now);
  const transfer = windowAt(u.bytes, u.startedAt?.transfer, tier.transferWindowSeconds, now);
  const state: LimitWindows = { minute, hour, transfer, inFlight: u.inFlight };
  const refused = nextRefusal(tier, state, now);
  const view = (
    kind: WindowView['kind'],
    w: typeof minute,
    limit: number,
    seconds: number,
  ): WindowView => ({
    kind,
    limit,
    used: w.used,
    left: Math.max(0, limit - w.used),
    windowSeconds: seconds,
    resetsAt: w.resetsAt === null ? null : new Date(w.resetsAt).toISOString(),
  });
  return {
    name: key.name,
    environment: key.environment,
    tier: key.tier,
    windows: [
      view('requests per minute', minute, tier.requestsPerMinute, tier.minuteWindowSeconds),
      view('requests per hour', hour, tier.requestsPerHour, tier.hourWindowSeconds),
      view('data transfer', transfer, tier.bytesPerWindow, tier.transferWindowSeconds),
    ],
    slots: { inUse: u.inFlight, limit: tier.concurrentConnections },
    next: refused
      ? {
          refused: true,
          kind: refused.kind,
          retryAfterSeconds: known ? refused.retryAfterSeconds : null,
        }
      : { refused: false, kind: null, retryAfterSeconds: null },
  };
}

/** Every configured key's view at `now`. */
export function limitsView(
  keys: readonly KeyRecord[],
  tiers: ReadonlyMap<string, Tier>,
  usage: Record<string, LimitUsage>,
  now: number,
) {
  const out = [];
  for (const key of keys) {
    const tier = tiers.get(key.tier);
    if (!tier) continue;
    out.push(
      keyLimits(key, tier, Object.hasOwn(usage, key.name) ? usage[key.name] : undefined, now),
    );
  }
  return { now: new Date(now).toISOString(), keys: out };
}
