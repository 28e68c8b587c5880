/**
 * @module net/health.test
 * `GET /healthz` on the mock and the proxy: 200 `{"status":"ok"}` with no key, token or allowed
 * Host, and invisible to everything that counts requests (the mock's journal and log, rate limits,
 * the proxy's stats and upstream), so an orchestrator probing every few seconds changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createProxyApp } from '../proxy/app.js';
import { DEMO, testApp, memoryParts } from '../testing/mock-app.js';
import { HEALTH_PATH } from './health.js';

describe('GET /healthz', () => {
  it('the mock answers it without a key, and it is not journaled, logged or rate limited', async () => {
    const lines: string[] = [];
    const app = await testApp({
      adminToken: 'qa-token',
      log: (line) => lines.push(line),
      tierOverride: { requestsPerMinute: 2 },
    });
    for (let i = 0; i < 5; i++) {
      const res = await app.request(HEALTH_PATH);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ status: 'ok' });
    }
    expect((await app.request(HEALTH_PATH, { method: 'HEAD' })).status).toBe(200);
    expect(memoryParts(app).journal.last()).toEqual([]);
    expect(lines).toEqual([]);
    // A key's quota is untouched by probes (two per minute here): its first request is admitted.
    const api = await app.request('/web-data/v1/packages?limit=1', {
      headers: { 'x-api-key': DEMO.production },
    });
    expect(api.status).toBe(200);
    expect(api.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('the proxy answers it whatever the Host, forwards nothing and counts nothing', async () => {
    const forwarded: string[] = [];
    const app = await createProxyApp({
      upstream: 'http://127.0.0.1:9/web-data/v1',
      apiKey: 'live-key-for-test',
      log: () => {},
      fetch: async (input) => {
        forwarded.push(String(input));
        return new Response('{}', { status: 500 });
      },
    });
    for (const host of ['localhost:4020', 'web-data-proxy:4020', '10.0.0.7:4020']) {
      const res = await app.request(`http://${host}${HEALTH_PATH}`, { headers: { host } });
      expect(res.status, host).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    }
    expect(forwarded).toEqual([]);
    expect(app.reporter.stats().requests).toBe(0);
    // The Host check still guards everything else.
    const other = await app.request('http://10.0.0.7:4020/__proxy/stats', {
      headers: { host: '10.0.0.7:4020' },
    });
    expect(other.status).toBe(403);
  });
});
