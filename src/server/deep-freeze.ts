/**
 * @module deep-freeze
 * Freezes a value and everything in it, for what the mock keeps in a cache and hands out to more
 * than one request: nobody can change what the next request gets.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
