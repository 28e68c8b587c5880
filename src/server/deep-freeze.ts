/**
 * @module deep-freeze
 * Freezes a value and everything in it, for what the mock keeps in a cache and hands out to more
 * than one request: nobody can change what the next request gets. Walked with a stack of its own,
 * so no nesting depth reaches the call stack's limit.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const inner of Object.values(v)) pending.push(inner);
    }
  }
  return value;
}
