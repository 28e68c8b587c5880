/**
 * @module server/journal-secrets.test
 * Issue 36: the journal and the `--log` line find a key the one way (src/redaction.ts), not only
 * where a whole value equals it: in the path, in a query parameter's or a JSON member's name,
 * inside a header value or a body text, in upper case, hex or base64. And a JSON body nested
 * 5,000 deep, which crashed the journal's recursive blanking (the client saw its socket close),
 * answers 400 again.
 */
import { describe, expect, it } from 'vitest';
import { call, DEMO, testApp } from '../../testing/mock-app.js';

const SECRET = DEMO.production;
/** Every spelling the journal must not keep. */
const SPELLINGS = [
  SECRET,
  SECRET.toUpperCase(),
  Buffer.from(SECRET).toString('base64').slice(0, 20),
  Buffer.from(SECRET).toString('hex'),
];

async function journalAndLog(send: (app: Awaited<ReturnType<typeof testApp>>) => Promise<void>) {
  const lines: string[] = [];
  const app = await testApp({ adminToken: 'qa', log: (line) => lines.push(line) });
  await send(app);
  const journal = await call(app, '/__mock/requests?limit=50', {
    key: null,
    headers: { 'x-mock-admin-token': 'qa' },
  });
  return { journal: journal.text, log: lines.join('\n'), requests: journal.body.requests };
}

describe('the journal and the log find a key in any form, anywhere', () => {
  it('blanks it in the path, names, header values, body text, any case or encoding', async () => {
    const b64 = Buffer.from(SECRET).toString('base64');
    const { journal, log, requests } = await journalAndLog(async (app) => {
      await call(app, `/products/${SECRET}`);
      await call(app, `/products/${SECRET.toUpperCase()}`);
      await call(app, `/products?${SECRET}=1&q=${b64}`);
      await call(app, '/products?limit=1', { headers: { 'user-agent': `x/${SECRET}` } });
      await call(app, '/product-parts/search', { body: { [SECRET]: 1, note: `pre-${SECRET}` } });
      await call(app, '/product-parts/search', { body: `not json ${SECRET}` });
      await call(app, '/product-parts/search', {
        body: JSON.stringify({ hex: Buffer.from(SECRET).toString('hex') }),
      });
    });
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const spelling of SPELLINGS) {
      expect(journal, spelling).not.toContain(spelling);
      expect(log, spelling).not.toContain(spelling);
    }
    expect(requests.map((r: { path: string }) => r.path)).toContain('/web-data/v1/products/***');
    expect(log).toContain('GET /web-data/v1/products/*** ');
  });

  it('answers 400 to a JSON body nested 5,000 deep, and journals it as text', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    let statuses: number[] = [];
    const { requests } = await journalAndLog(async (app) => {
      statuses = [
        (await call(app, '/product-parts/search', { body: deep })).status,
        (await call(app, '/product-parts/cross-reference', { body: deep })).status,
      ];
    });
    expect(statuses).toEqual([400, 400]);
    expect(requests[0]).toMatchObject({ status: 400, bodyText: deep });
    expect(requests[0].body).toBeUndefined();
  });
});
