/**
 * @module proxy/errors
 * The one shape of every answer the proxy gives itself instead of the live service's: a JSON
 * `{error}` with the status, built here so each refusal (Host, origin, path, size, route) and each
 * upstream failure reads and is typed the same way.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** `{error}` as JSON with `status`; `headers` for what a refusal must add (e.g. `vary`). */
export function errorAnswer(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  headers?: Record<string, string>,
): Response {
  return c.json({ error }, status, headers);
}
