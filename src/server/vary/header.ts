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
  for (let i = pointer.indexOf('/'); i !== -1; i = pointer.indexOf('/', i + 1)) depth++;
  return depth;
}

/** Anything but printable ASCII, and the list's own separators. */
const UNSAFE = /[^\x21-\x7e]|[,;%]/u;
const UNSAFE_ALL = /[^\x21-\x7e]|[,;%]/gu;

/** A pointer as a header carries it: anything but printable ASCII, and the list's own separators, percent-encoded. */
function headerSafe(pointer: string): string {
  return UNSAFE.test(pointer)
    ? pointer.replace(UNSAFE_ALL, (ch) => encodeURIComponent(ch))
    : pointer;
}

/** `seed=3; absent /data/0/images, null /data/1/class, ... (+12 more)`; `seed=3; none` when nothing was varied. */
export function variationHeader(seed: number, edits: readonly Edit[]): string {
  const head = `seed=${seed}; `;
  if (edits.length === 0) return `${head}none`;
  // A stable order: by depth, body order within each depth (the depth worked out once per edit).
  const depths = edits.map((edit) => depthOf(edit.pointer));
  const order = edits.map((_, i) => i).sort((a, b) => depths[a] - depths[b] || a - b);
  const shown: string[] = [];
  let length = head.length;
  for (const [n, i] of order.entries()) {
    const item = `${edits[i].kind} ${headerSafe(edits[i].pointer)}`;
    const rest = edits.length - n - 1;
    // Room for this item, its separator, and the "(+n more)" a later cut would add.
    const tail = rest > 0 ? ` (+${rest} more)`.length : 0;
    if (length + item.length + 2 + tail > MAX_VARIATION_HEADER_CHARS)
      return `${head}${shown.join(', ')} (+${edits.length - n} more)`;
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
