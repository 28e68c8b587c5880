import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/clock.js';
import { RateLimiter } from './rate-limiter.js';
import { tierOverrideProblems, type Tier } from '../../server/config/tiers.js';

const tier: Tier = {
  requestsPerMinute: 3,
  requestsPerHour: 5,
  concurrentConnections: 2,
  bytesPerWindow: 1000,
  minuteWindowSeconds: 60,
  hourWindowSeconds: 3600,
  transferWindowSeconds: 600,
};
const setup = () => {
  const clock = new ManualClock();
  return { clock, limiter: new RateLimiter(new Map([['t', tier]]), clock) };
};
const admitted = (a: ReturnType<RateLimiter['admit']>) => {
  if (!a.ok) throw new Error(`refused: ${a.kind}`);
  return a;
};

describe('RateLimiter', () => {
  it('counts down and refuses the request past the minute limit with the time left in the window', () => {
    const { clock, limiter } = setup();
    expect(
      [1, 2, 3].map(() => {
        const a = admitted(limiter.admit('k', 't'));
        a.slot.release(0);
        return a.remaining;
      }),
    ).toEqual([2, 1, 0]);
    clock.advance(20_000);
    const refused = limiter.admit('k', 't');
    expect(refused).toMatchObject({
      ok: false,
      kind: 'requests per minute',
      retryAfterSeconds: 40,
    });
  });

  it('recovers when the window passes', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i++) admitted(limiter.admit('k', 't')).slot.release(0);
    clock.advance(60_000);
    expect(admitted(limiter.admit('k', 't')).remaining).toBe(1); // the hour window (5) is now the closer one
  });

  it('reports the hour window when it is the closer one, and refuses past it', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i++) admitted(limiter.admit('k', 't')).slot.release(0);
    clock.advance(60_000);
    const fourth = admitted(limiter.admit('k', 't'));
    expect([fourth.limit, fourth.remaining]).toEqual([5, 1]);
    fourth.slot.release(0);
    admitted(limiter.admit('k', 't')).slot.release(0);
    clock.advance(60_000);
    expect(limiter.admit('k', 't')).toMatchObject({
      ok: false,
      kind: 'requests per hour',
      retryAfterSeconds: 3600 - 120,
    });
  });

  it('limits concurrent requests until one is released', () => {
    const { limiter } = setup();
    const a = admitted(limiter.admit('k', 't'));
    admitted(limiter.admit('k', 't'));
    expect(limiter.admit('k', 't')).toMatchObject({
      ok: false,
      kind: 'concurrent connections',
      retryAfterSeconds: 1,
    });
    a.slot.release(0);
    a.slot.release(0); // a second release is ignored
    expect(limiter.admit('k', 't').ok).toBe(true);
    expect(limiter.snapshot().k.inFlight).toBe(2);
  });

  it('limits data transfer by the bytes sent', () => {
    const { clock, limiter } = setup();
    admitted(limiter.admit('k', 't')).slot.release(1000);
    clock.advance(1000);
    expect(limiter.admit('k', 't')).toMatchObject({
      ok: false,
      kind: 'data transfer',
      retryAfterSeconds: 599,
    });
  });

  it('keeps keys apart and forgets them on reset', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i++) admitted(limiter.admit('a', 't')).slot.release(0);
    expect(limiter.admit('b', 't').ok).toBe(true);
    expect(limiter.admit('a', 't').ok).toBe(false);
    limiter.reset('a');
    expect(limiter.admit('a', 't').ok).toBe(true);
  });
});

describe('--rate-limit overrides', () => {
  it("follow the tiers file's field rules: whole counts, bounded values", () => {
    expect(tierOverrideProblems({ concurrentConnections: 1, minuteWindowSeconds: 0.5 })).toEqual(
      [],
    );
    expect(tierOverrideProblems({ concurrentConnections: 1.5 })).toEqual([
      'concurrentConnections must be integer',
    ]);
    expect(tierOverrideProblems({ requestsPerMinute: 1e300 })).toEqual([
      expect.stringMatching(/^requestsPerMinute must be <= /),
    ]);
    expect(tierOverrideProblems({ hourWindowSeconds: 1e9 })).toEqual([
      expect.stringMatching(/^hourWindowSeconds must be <= /),
    ]);
  });
});
