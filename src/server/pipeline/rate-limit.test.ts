import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../state/clock/clock.js';
import { call, DEMO, testApp, memoryParts } from '../../testing/mock-app.js';

describe('rate limiting through the app', () => {
  it('counts down, answers 429 with retry_after = Retry-After, and recovers when the window passes', async () => {
    const clock = new ManualClock();
    const app = await testApp({ clock });
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call(app, '/packages?limit=1', { key: DEMO.lowTier });
      expect(res.status).toBe(200);
      const limit = Number(res.headers.get('x-ratelimit-limit'));
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      expect(remaining.at(-1)!).toBeLessThanOrEqual(limit);
    }
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
    expect(remaining.at(-1)).toBe(0);
    clock.advance(15_000);
    const limited = await call(app, '/packages?limit=1', { key: DEMO.lowTier });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: expect.stringContaining('requests per minute'),
      code: 429,
      retry_after: 45,
    });
    expect(limited.headers.get('retry-after')).toBe('45');
    // Another key is not affected.
    expect((await call(app, '/packages?limit=1', { key: DEMO.production })).status).toBe(200);
    clock.advance(45_000);
    expect((await call(app, '/packages?limit=1', { key: DEMO.lowTier })).status).toBe(200);
  });

  it('keeps no state for keys it does not know, however many are sent', async () => {
    const app = await testApp();
    for (let i = 0; i < 2000; i++) await call(app, '/packages', { key: `flood-${i}` });
    expect(Object.keys(memoryParts(app).limiter.snapshot())).toEqual([]);
  });
});
