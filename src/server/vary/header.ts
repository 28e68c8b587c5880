/**
 * @module vary/header
 * The `x-mock-variation` header: the seed and what was varied where, so a failing client test can
 * name the pointer and the run can be repeated. The shallowest pointers come first (a record's own
 * fields before what is nested in them: what client code reads first), in body order at each
 * depth. Bounded: a long list is cut, saying how many more.
 */
import type { Edit } from './edits.js';

export const VARIATION_HEADER = 'x-mock-variation';
/**
 * Longest header value: half the 16 KiB Node's HTTP parser (and undici's fetch) accepts for all
 * of a response's headers, enough for the record-level edits of a 20-record page.
 */
export const MAX_VARIATION_HEADER_CHARS = 8000;

function depthOf(pointer: string): number {
  let depth = 0;
  for (const ch of pointer) if (ch === '/') depth++;
  return depth;
}

/** A pointer as a header carries it: anything but printable ASCII, and the list's own separators, percent-encoded. */
function headerSafe(pointer: string): string {
  return pointer.replace(/[^\x21-\x7e]|[,;%]/gu, (ch) => encodeURIComponent(ch));
}

/** `seed=3; absent /data/0/images, null /data/1/class, ... (+12 more)`; `seed=3; none` when nothing was varied. */
export function variationHeader(seed: number, edits: readonly Edit[]): string {
  const head = `seed=${seed}; `;
  if (edits.length === 0) return `${head}none`;
  const shown: string[] = [];
  let length = head.length;
  // A stable sort: body order within each depth.
  const ordered = [...edits].sort((a, b) => depthOf(a.pointer) - depthOf(b.pointer));
  for (const [i, edit] of ordered.entries()) {
    const item = `${edit.kind} ${headerSafe(edit.pointer)}`;
    const rest = edits.length - i - 1;
    // Room for this item, its separator, and the "(+n more)" a later cut would add.
    const tail = rest > 0 ? ` (+${rest} more)`.length : 0;
    if (length + item.length + 2 + tail > MAX_VARIATION_HEADER_CHARS) {
      return `${head}${shown.join(', ')} (+${edits.length - i} more)`;
    }
    shown.push(item);
    length += item.length + 2;
  }
  return `${head}${shown.join(', ')}`;
}

/** The edits a header names, back as `{kind, pointer}` (what a test or a client reads). */
export function parseVariationHeader(value: string): { seed: number; edits: Edit[] } {
  const match = /^seed=(\d+); (.*)$/.exec(value);
  if (!match) throw new Error(`not an ${VARIATION_HEADER} value: ${JSON.stringify(value)}`);
  const list = match[2].replace(/ \(\+\d+ more\)$/, '');
  const edits =
    list === 'none'
      ? []
      : list.split(', ').map((item) => {
          const [kind, pointer] = item.split(' ');
          return { kind, pointer: decodeURIComponent(pointer) } as Edit;
        });
  return { seed: Number(match[1]), edits };
}
