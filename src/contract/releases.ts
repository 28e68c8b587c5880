/**
 * @module releases
 * The API's releases, read from `info.x-changelog` in the document, and the one comparison every
 * reader of `x-since` needs.
 */

/** A release name as used by `x-since`: a semantic version or `unreleased`. */
export type Release = string;

export const UNRELEASED = 'unreleased';

function parts(release: Release): number[] {
  if (release === UNRELEASED) return [Number.MAX_SAFE_INTEGER];
  return release.split('.').map((n) => Number.parseInt(n, 10));
}

/** Negative when `a` is older than `b`, zero when equal, positive when newer. */
export function compareReleases(a: Release, b: Release): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** True when something introduced in `since` (absent means 1.0.0) exists in `release`. */
export function existsIn(since: Release | undefined, release: Release): boolean {
  return compareReleases(since ?? '1.0.0', release) <= 0;
}

/** The `x-since` of a node of the document (undefined when it has none). */
export function sinceOf(node: unknown, root?: unknown): Release | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const obj = node as Record<string, unknown>;
  // In the document as written, a `$ref` entry carries the `x-since` of what it points to.
  if (root && typeof obj.$ref === 'string' && obj.$ref.startsWith('#/')) {
    const target = obj.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], root);
    return (obj['x-since'] as Release | undefined) ?? sinceOf(target);
  }
  return obj['x-since'] as Release | undefined;
}
