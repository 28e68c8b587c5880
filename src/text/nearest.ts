/**
 * @module text/nearest
 * The known name nearest a misspelt one (`adminTokn` -> `adminToken`, `sed` -> `seed`), for
 * messages that refuse a name and say which was probably meant.
 */

/** Longest name compared: a longer one is cut first, so a hostile name costs a bounded time. */
const MAX_COMPARED = 64;

/** Edits (insert, delete, replace, swap of two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const s = a.slice(0, MAX_COMPARED);
  const t = b.slice(0, MAX_COMPARED);
  // Three rows of the optimal-string-alignment table (the swap looks two rows back).
  let before = Array.from({ length: t.length + 1 }, () => 0);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, before[j - 2] + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[t.length];
}

/**
 * The known name nearest `name` (case ignored), or undefined when none is near enough to be a
 * likely slip: at most a third of the name's length in edits, and at least 2 allowed.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const allowed = Math.max(2, Math.floor(Math.min(name.length, MAX_COMPARED) / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}
