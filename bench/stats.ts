/**
 * @module bench/stats
 * The one statistic the bench's verdicts read: the median (of rounds, of cold starts), which one
 * disturbed run cannot move the way it moves a mean.
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
