/**
 * @module contract/judge/headers
 * The headers an answer made by hand (a stub's `respond`) may carry: those the document declares
 * for its status, and `content-type` (whose value checkResponse holds to the declared media
 * types). The mock sends a stub's body as it is, so a `content-encoding` would lie about it; it
 * promises no cookies and no CORS (a browser app goes through the proxy); and any other header
 * is one the document never says the service sends. A live service's transport headers (a CDN's
 * cookie) are no concern of the contract suite, which therefore does not call this.
 */
import type { ResponseSpec } from '../model.js';
import type { Judgement } from './finding.js';

/** Headers every answer may carry whatever its status declares. */
const ALWAYS_ALLOWED: ReadonlySet<string> = new Set(['content-type']);

/** A finding for each header name the response may not carry. */
export function judgeHeaderNames(
  declared: Pick<ResponseSpec, 'status' | 'headers'>,
  names: Iterable<string>,
): Judgement[] {
  const allowed = new Set([
    ...ALWAYS_ALLOWED,
    ...declared.headers.map((h) => h.name.toLowerCase()),
  ]);
  const out: Judgement[] = [];
  for (const raw of names) {
    const name = raw.toLowerCase();
    if (allowed.has(name)) continue;
    out.push({
      rule: 'headers',
      pointer: `header:${name.slice(0, 100)}`,
      expected: `one of the headers the document declares for ${declared.status}: ${[...allowed].sort().join(', ')}`,
      actual: raw,
      message: `header ${name.slice(0, 100)} is not one the service sends with ${declared.status}`,
      source: 'documented',
    });
  }
  return out;
}
