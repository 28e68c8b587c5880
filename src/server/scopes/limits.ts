/**
 * @module scopes/limits
 * How long a scope lives unused and how many a mock holds (DECISIONS.md: scopes), with the
 * ranges the flags and the library's options accept, and the refusal when the mock is full.
 */
export const DEFAULT_SCOPE_TTL_SECONDS = 900;
export const SCOPE_TTL_RANGE = { min: 1, max: 7 * 24 * 3600 } as const;
export const DEFAULT_MAX_SCOPES = 256;
export const MAX_SCOPES_RANGE = { min: 1, max: 10_000 } as const;
/** A full mock refuses a new scope with this status: the request conflicts with the mock's state. */
export const SCOPE_LIMIT_STATUS = 409;

/** The problem with a value given for `option`, or undefined when it is an integer in range. */
export function rangeProblem(
  value: unknown,
  range: { min: number; max: number },
): string | undefined {
  return Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max
    ? undefined
    : `must be an integer from ${range.min} to ${range.max} (got ${JSON.stringify(value) ?? String(value)})`;
}

/** The refusal of a new scope when the mock holds `max` already: what to do about it. */
export function scopeLimitMessage(max: number, ttlSeconds: number): string {
  return (
    `the mock holds ${max} scopes, the most it may (--max-scopes, maxScopes); end one with ` +
    `close() (DELETE /__mock/scopes/{id}), or wait until one has gone unused for its TTL ` +
    `(${ttlSeconds} s, --scope-ttl, scopeTtlSeconds), or start the mock with a higher --max-scopes`
  );
}

export class ScopeLimitError extends Error {
  constructor(max: number, ttlSeconds: number) {
    super(scopeLimitMessage(max, ttlSeconds));
    this.name = 'ScopeLimitError';
  }
}
