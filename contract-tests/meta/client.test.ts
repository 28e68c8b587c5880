/**
 * @module meta/client.test
 * The suite's HTTP client without a network: a fake fetch and an injected sleep show that it waits
 * out a 429 for `Retry-After` seconds, keeps to its request budget, fails fast with a clear message
 * on a hung target, and never puts a key into a curl line.
 */
import { describe, expect, it } from 'vitest';
import { TargetError, createClient, type ClientOptions } from '../../src/suite/support/client.js';

const BASE = 'http://target.test/web-data/v1';
const SECRET = 'not-a-real-key-123';

function client(fetch: typeof globalThis.fetch, extra: Partial<ClientOptions> = {}) {
  const slept: number[] = [];
  const c = createClient({
    baseUrl: BASE,
    keys: { main: SECRET },
    timeoutMs: 50,
    concurrency: 2,
    maxRequests: 10,
    maxRetryWaitMs: 60_000,
    maxBodyBytes: 1_000,
    maxJsonDepth: 8,
    fetch,
    sleep: async (ms) => void slept.push(ms),
    ...extra,
  });
  return { c, slept };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('contract client', () => {
  it('waits Retry-After seconds on 429, then retries', async () => {
    const answers = [
      json(429, { error: 'slow down', code: 429, retry_after: 2 }, { 'retry-after': '2' }),
      json(200, { ok: true }),
    ];
    const { c, slept } = client(async () => answers.shift()!);
    const ex = await c.send({ operationId: 'op', method: 'GET', path: '/x' });
    expect(ex.status).toBe(200);
    expect(ex.retries).toBe(1);
    expect(slept).toEqual([2000]);
    expect(c.sent).toBe(2);
  });

  it("waits the body's retry_after when a 429 has no Retry-After header", async () => {
    const answers = [
      json(429, { error: 'slow down', code: 429, retry_after: 3 }),
      json(200, { ok: true }),
    ];
    const { c, slept } = client(async () => answers.shift()!);
    expect((await c.send({ operationId: 'op', method: 'GET', path: '/x' })).status).toBe(200);
    expect(slept).toEqual([3000]);
  });

  it('keeps waiting out 429s while the waits fit CONTRACT_MAX_RETRY_WAIT_MS, then says so', async () => {
    const { c, slept } = client(
      async () => json(429, { error: 'e', code: 429, retry_after: 20 }, { 'retry-after': '20' }),
      { maxRetryWaitMs: 60_000, maxRequests: 100 },
    );
    const error = await c
      .send({ operationId: 'op', method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(slept).toEqual([20_000, 20_000, 20_000]);
    expect(String(error)).toMatch(
      /still 429 after 3 retries; the next wait \(20000 ms\) would exceed CONTRACT_MAX_RETRY_WAIT_MS=60000/,
    );
  });

  it('does not retry when the 429 is the point', async () => {
    const { c, slept } = client(async () =>
      json(429, { error: 'e', code: 429, retry_after: 1 }, { 'retry-after': '1' }),
    );
    expect(
      (await c.send({ operationId: 'op', method: 'GET', path: '/x', retryOn429: false })).status,
    ).toBe(429);
    expect(slept).toEqual([]);
  });

  it('stops at the request budget', async () => {
    const { c } = client(async () => json(200, {}), { maxRequests: 1 });
    await c.send({ operationId: 'op', method: 'GET', path: '/x' });
    await expect(c.send({ operationId: 'op', method: 'GET', path: '/x' })).rejects.toThrow(
      /CONTRACT_MAX_REQUESTS=1/,
    );
  });

  it('fails fast and clearly when the target does not answer', async () => {
    const hung: typeof fetch = (_url, init) =>
      new Promise((_, reject) =>
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason as Error)),
      );
    const { c } = client(hung);
    const error = await c
      .send({ operationId: 'op', method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetError);
    expect(String(error)).toMatch(
      /GET http:\/\/target.test\/web-data\/v1\/x failed: no answer within 50 ms/,
    );
  });

  it('sends the key in x-api-key but shows it as $API_KEY in the curl line', async () => {
    let sentKey: string | null = null;
    const { c } = client(async (_url, init) => {
      sentKey = new Headers(init!.headers).get('x-api-key');
      return json(200, {});
    });
    const ex = await c.send({
      operationId: 'op',
      method: 'POST',
      path: '/p/A%23B',
      query: [['limit', '3']],
      body: { a: "it's" },
    });
    expect(sentKey).toBe(SECRET);
    expect(ex.curl).toBe(
      `curl -sS -i -X POST 'http://target.test/web-data/v1/p/A%23B?limit=3' -H "x-api-key: $API_KEY" -H 'content-type: application/json' --data-binary '{"a":"it'\\''s"}'`,
    );
    expect(ex.curl).not.toContain(SECRET);
  });
});
