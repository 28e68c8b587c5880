/**
 * @module api/option-names
 * The library refuses an option it does not know, at run time, with a `TypeError` that names it
 * and the nearest known one: a JavaScript caller has no compiler to catch `adminTokn`, and an
 * option dropped without a word (`state`, say) lets a test believe what is not so.
 */
import { nearestName } from '../text/nearest.js';
import { showControls } from '../text/markdown.js';

/** Longest name a message repeats. */
const MAX_NAME_SHOWN = 60;

const quoted = (name: string) => showControls(JSON.stringify(name.slice(0, MAX_NAME_SHOWN)));

/**
 * Throws a TypeError when `given` is not an object, or holds a member not in `known`; `where`
 * names the function (and the member, for a nested option object) in the message.
 */
export function refuseUnknownOptions(
  where: string,
  given: unknown,
  known: readonly string[],
): void {
  if (given === undefined) return;
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new TypeError(`${where}: options must be an object`);
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    throw new TypeError(
      `${where}: unknown option ${quoted(name)}` +
        (nearest === undefined ? '' : ` (did you mean "${nearest}"?)`) +
        `; known options: ${known.join(', ')}`,
    );
  }
}
