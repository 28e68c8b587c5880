/**
 * @module contract/judge/rate-limit
 * A 429's two ways of saying how long to wait: the `Retry-After` header and the body's
 * `retry_after` must agree when both are there (the source: a 429 "may also carry" the header;
 * either alone is fine). The suite holds a provoked 429 to it, the mock a stubbed one.
 */
import type { Judgement } from './finding.js';
import { isJsonObject } from './json.js';

export function judgeRetryAfter(header: string | null | undefined, body: unknown): Judgement[] {
  const retryAfter = isJsonObject(body) ? body.retry_after : undefined;
  if (header == null || retryAfter === undefined || Number(header) === retryAfter) return [];
  return [
    {
      rule: 'rate-limit-retry-after',
      pointer: 'header:retry-after',
      expected: `Retry-After equal to retry_after in the body (${JSON.stringify(retryAfter)})`,
      actual: header,
      message: 'Retry-After header and retry_after body field disagree',
      source: 'documented',
    },
  ];
}
