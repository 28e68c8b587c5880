/**
 * @module server/memory.test
 * The bounded version of `bench/soak.ts`, in process: whatever clients send, the mock's per-request
 * state stays bounded. A flood of never-seen keys leaves no rate-limiter state (only configured
 * keys get counters); the request journal keeps its capacity; the body caches (serialized
 * records, encoded responses) stop growing however many distinct queries arrive.
 */
import { describe, expect, it } from 'vitest';
import { DEMO, testApp, memoryParts } from '../testing/mock-app.js';

const FLOOD = 5_000;
/** Distinct list queries per half of the cache check; well above any sane cache bound. */
const DISTINCT_QUERIES = 3_000;
const BASE = 'http://mock.test/web-data/v1';

describe('memory stays bounded', async () => {
  // Response self-checks off: this measures the server's own state, and runs faster.
  const app = await testApp({ validateResponses: false });
  const { keys } = app.state;
  const { limiter, journal } = memoryParts(app);
  // Serialized records and encoded response bodies: both are per-request caches.
  const { recordTexts, encoded } = app.state.apis[0];
  const cached = () => recordTexts.size + encoded.size;

  it('a flood of distinct unknown keys leaves no rate-limiter state and a bounded journal', async () => {
    const configured = new Set(keys.records.map((k) => k.name));
    for (let n = 0; n < FLOOD; n++) {
      // Half look like real keys, half are junk; none is configured.
      const key =
        n % 2 === 0
          ? `wd_live_${n.toString(16).padStart(32, '0')}`
          : `junk-${n}-${'x'.repeat(n % 97)}`;
      const res = await app.request(`${BASE}/products?limit=1`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    const tracked = Object.keys(limiter.snapshot());
    expect(tracked.filter((name) => !configured.has(name))).toEqual([]);
    expect(tracked.length).toBeLessThanOrEqual(configured.size);
    expect(journal.last().length).toBe(journal.capacity);
    expect(journal.capacity).toBeLessThan(FLOOD);
  }, 30_000);

  it('the body caches plateau under endlessly distinct queries', async () => {
    const sizeAfter = async (from: number) => {
      for (let n = from; n < from + DISTINCT_QUERIES; n++) {
        // limit 1..1000 x page 0..n: every query is new, every one a 200.
        const res = await app.request(
          `${BASE}/products?limit=${(n % 100) + 1}&offset=${Math.floor(n / 100)}`,
          { headers: { 'x-api-key': DEMO.unlimited } },
        );
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      return cached();
    };
    const first = await sizeAfter(0);
    const second = await sizeAfter(DISTINCT_QUERIES);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeLessThanOrEqual(first);
    expect(second).toBeLessThan(2 * DISTINCT_QUERIES);
  }, 30_000);
});
