/**
 * @module admin/control-body
 * What every control endpoint's route file shares: the request's body read as a JSON object within
 * the admin bounds (MAX_ADMIN_BODY_BYTES, the body time bound), and the 503 a write gets while the
 * shared store is away.
 */
import type { Context, Env } from 'hono';
import { StoreUnavailableError } from '../../state/shared/unavailable.js';
import { apiError, messages } from '../errors.js';
import { readBodyText } from '../pipeline/read-body.js';

export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/** A control request's body as a JSON object (`{}` when empty); a 400 or 413 otherwise. */
export type BodyOf = (c: Context<Env, string>) => Promise<Record<string, unknown>>;

/** The admin request's body as a JSON object (empty body: `{}`), read within the admin bounds. */
export async function jsonBody(
  c: Context<Env, string>,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  // Read no further than the limit: a 300 MB body once took the mock from 131 MB to 916 MB.
  const { text } = await readBodyText(c, {
    maxBytes: MAX_ADMIN_BODY_BYTES,
    tooLarge: () =>
      apiError(
        413,
        `admin request body larger than ${MAX_ADMIN_BODY_BYTES} bytes`,
        {},
        { connection: 'close' },
      ),
    timeoutMs,
    tooSlow: () => apiError(400, messages.tooSlow(timeoutMs), {}, { connection: 'close' }),
  });
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to the 400 below
  }
  throw apiError(400, 'admin request body must be a JSON object', {
    details: [{ in: 'body', name: '', rule: 'JSON object', message: 'not a JSON object' }],
  });
}

/** A stub or fault added while the shared store is away: 503, like a record edit then. */
export function unavailable(error: unknown): void {
  if (error instanceof StoreUnavailableError) throw apiError(503, error.message);
}
