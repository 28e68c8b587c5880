/**
 * @module contract/pointer
 * JSON pointers (RFC 6901) as every reader of the document and of a response writes them: one
 * segment escaped (`~` as `~0`, `/` as `~1`) and unescaped, a pointer split into its segments
 * (a leading `#` of a URI fragment allowed), and the pattern that groups array items (`/data/*\/x`).
 */

/** One segment as a pointer writes it: `a/b~c` -> `a~1b~0c`. */
export function escapeSegment(segment: string): string {
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One written segment back to the name: `a~1b~0c` -> `a/b~c` (`~1` first, so `~01` stays `~1`). */
export function unescapeSegment(segment: string): string {
  if (!segment.includes('~')) return segment;
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A pointer from names: `['data', '0', 'a/b']` -> `/data/0/a~1b`. */
export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapeSegment(String(s))}`).join('');
}

/** A pointer's names: `/data/0/a~1b` or `#/data/0/a~1b` -> `['data', '0', 'a/b']`; `''` -> `[]`. */
export function segmentsOf(pointer: string): string[] {
  const path = pointer.replace(/^#/, '');
  if (path === '') return [];
  return path.slice(1).split('/').map(unescapeSegment);
}

/** The last name of a pointer, unescaped: `/data/*\/a~1b` -> `a/b`. */
export function lastSegment(pointer: string): string {
  return unescapeSegment(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** A pointer with array indices replaced by `*`, so one drift in 50 records is one finding. */
export function pointerPattern(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}
