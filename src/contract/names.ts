/**
 * @module contract/names
 * The longest name (a field, a header, a value used as a key) any output keeps of what a server or
 * a file sent: profiles, reports, summaries, evidence pages and logs cut a longer one to its first
 * `MAX_NAME_LENGTH` characters and say how long it was. The document's own names are far shorter
 * (its longest property name has 29 characters, its longest media type 71), so only a hostile or broken answer is cut.
 */
import { truncate } from './truncate.js';

/** Characters of a server-given name an output keeps. */
export const MAX_NAME_LENGTH = 200;

/** `name` when at most MAX_NAME_LENGTH long; else its start and `…(N chars)`. */
export function capName(name: string): string {
  return truncate(name, MAX_NAME_LENGTH, `…(${name.length} chars)`);
}
