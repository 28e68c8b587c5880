/**
 * @module journal/query-keys.test
 * A key a client puts in the query string never shows in `--log` lines, `/__mock/requests` or an
 * error body, under any of the names taken for keys, percent-encoded or not.
 */
import { describe, expect, it } from 'vitest';
import { call, DEMO, testApp } from '../../testing/mock-app.js';
import { KEY_QUERY_PARAMETERS, redactQueryKeys } from './query-keys.js';

const SECRET = 'sekrit-4711';

describe('keys in query strings', () => {
  it('are redacted in the log, the request journal and 400 bodies', async () => {
    const lines: string[] = [];
    const app = await testApp({ adminToken: 'qa', log: (line) => lines.push(line) });
    const queries = [
      `api_key=${SECRET}`,
      `x-api-key=${SECRET}`,
      `key=${SECRET}&limit=1`,
      `limit=1&APIKEY=${SECRET}`,
      `api%5Fkey=${SECRET}`,
      `Key=${encodeURIComponent(SECRET)}`,
    ];
    for (const query of queries) {
      const res = await call(app, `/packages?${query}`, { key: DEMO.production });
      expect(res.status, query).toBe(400);
      expect(res.text, query).not.toContain(SECRET);
      expect(res.text, query).not.toContain('4711');
    }
    const journal = await call(app, '/__mock/requests?limit=10', {
      key: null,
      headers: { 'x-mock-admin-token': 'qa' },
    });
    expect(
      journal.body.requests.filter((r: { path: string }) => r.path.startsWith('/web-data/')),
    ).toHaveLength(queries.length);
    expect(journal.text).not.toContain('4711');
    expect(journal.body.requests.map((r: { path: string }) => r.path)).toContain(
      '/web-data/v1/packages?key=REDACTED&limit=1',
    );
    expect(lines.length).toBeGreaterThanOrEqual(queries.length);
    for (const line of lines) expect(line).not.toContain('4711');
  });

  it('redacts every name taken for a key, whatever its case (the quick test for "key" or "%" sees them all)', () => {
    for (const name of KEY_QUERY_PARAMETERS) {
      expect(redactQueryKeys(`limit=1&${name}=s`)).toBe(`limit=1&${name}=REDACTED`);
      expect(redactQueryKeys(`${name.toUpperCase()}=s`)).toBe(`${name.toUpperCase()}=REDACTED`);
    }
  });

  it('leaves other parameters alone', () => {
    expect(redactQueryKeys('limit=1&keyword=x&monkey=y')).toBe('limit=1&keyword=x&monkey=y');
    expect(redactQueryKeys('key')).toBe('key=REDACTED');
  });
});
