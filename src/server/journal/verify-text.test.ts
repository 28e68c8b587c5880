/**
 * @module journal/verify-text.test
 * A failed verification's near misses print what clients sent; every control character (C0 and
 * C1, such as CSI U+009B) and every bidi control (RLO U+202E, the isolates U+2066-U+2069) comes
 * out as its `\u` escape, so a message printed to a terminal or a CI log shows what was sent
 * instead of acting on it.
 */
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../state/journal/store.js';
import { verifyRequests } from './verify.js';

const line = (path: string, query: Record<string, unknown>): JournalLine => ({
  id: '1',
  at: '2026-11-28T00:00:00.000Z',
  method: 'GET',
  path,
  status: 200,
  key: 'demo\u202eproduction',
  operation: 'listProducts',
  ms: 1,
  instance: 'test',
  query,
});

describe('near-miss text', () => {
  it('escapes C0, C1 and bidi controls in paths, values and names', () => {
    const hostile = 'a\u001b[31mb\u009b31mc\u202ed\u2066e\u0085f';
    const { ok, message } = verifyRequests(
      [line(`/web-data/v1/products?q=${hostile}`, { q: hostile })],
      { operationId: 'listProducts', query: { q: 'x' } },
      { times: 1 },
    );
    expect(ok).toBe(false);
    expect(message).toContain('\\u009b');
    expect(message).toContain('\\u202e');
    expect(message).toContain('\\u2066');
    expect(message).toContain('\\u0085');
    // No raw control of any kind beyond the message's own line breaks.
    expect(message).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
    );
  });
});
