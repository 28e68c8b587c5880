/**
 * @module faults/forced-response
 * The response a forced status gets: exactly what the document declares for it (the API's error
 * bodies; for 429 `retry_after` and `Retry-After` agree), built by the same helpers the mock uses
 * for real errors.
 */
import type { HTTPException } from 'hono/http-exception';
import type { Operation } from '../../contract/index.js';
import { apiError, badRequest, messages, tooManyRequests } from '../errors.js';

/** Seconds a forced 429 asks the client to wait, unless the `Prefer` header says `retry-after=N`. */
export const FORCED_RETRY_AFTER_SECONDS = 1;

export function forcedError(
  op: Operation,
  status: number,
  retryAfterSeconds = FORCED_RETRY_AFTER_SECONDS,
): HTTPException {
  const why = `(forced by a QA scenario for ${op.operationId})`;
  switch (status) {
    case 400:
      return badRequest([
        { in: 'header', name: 'prefer', rule: 'forced status', message: `bad request ${why}` },
      ]);
    case 401:
      return apiError(401, `${messages.invalidKey} ${why}`);
    case 403:
      return apiError(403, `${messages.forbidden(op.family)} ${why}`);
    case 404:
      return apiError(404, `Record not found ${why}`);
    case 413:
      return apiError(413, `Request body too large ${why}`);
    case 429:
      return tooManyRequests('forced', retryAfterSeconds);
    default:
      return apiError(status, `${messages.serverError} ${why}`);
  }
}
