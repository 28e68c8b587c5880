/**
 * @module support/json-depth
 * A linear scan of JSON text for its nesting depth, so a body nested a million levels deep is
 * refused before `JSON.parse` and before any recursive walk (schema validation, href collection)
 * could overflow the stack.
 */

const OPEN = new Set(['[', '{']);
const CLOSE = new Set([']', '}']);

/** Whether brackets outside strings nest deeper than `max`. Stops at the first level too deep. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (OPEN.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSE.has(c)) depth--;
  }
  return false;
}
