/**
 * @module server/query-secrets.test
 * Issue 24, item 8: a secret sent in the query (under a key-like name, or any name with a
 * configured key's value) never comes back in a 400 body, nor reaches the log or the journal,
 * on the 401 path too.
 */
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../testing/mock-app.js';
import { admin, mockServers } from '../../testing/http.js';

const start = mockServers();

describe('8. a secret sent in the query never comes back nor reaches the log', () => {
  it('redacts key-like names and any value equal to a configured secret, in 400 bodies, the log and the 401 path', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    const secret = DEMO.staging;
    const queries = [
      `api-key=${secret}`,
      `token=${secret}`,
      `access_token=${secret}`,
      `whatever=${secret}`,
      `x_api_key=${secret}`,
    ];
    for (const query of queries) {
      const res = await fetch(`${server.url}/packages?${query}`, {
        headers: { 'x-api-key': DEMO.production },
      });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).not.toContain(secret);
      expect(text).toContain('REDACTED');
      const unauthorized = await fetch(`${server.url}/packages?${query}`);
      expect(unauthorized.status).toBe(401);
      expect(await unauthorized.text()).not.toContain(secret);
    }
    // A value the keys do not know is no secret: still echoed (the client needs to see its mistake).
    const other = await fetch(`${server.url}/packages?whatever=plain-value`, {
      headers: { 'x-api-key': DEMO.production },
    });
    expect(await other.text()).toContain('plain-value');
    expect(lines.length).toBeGreaterThanOrEqual(queries.length * 2);
    expect(lines.join('\n')).not.toContain(secret);
    const journal = await (await admin(server, '/requests?limit=50')).text();
    expect(journal).not.toContain(secret);
  });
});
