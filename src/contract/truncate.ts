/**
 * @module truncate
 * The one way a long text is cut before it is shown (an error body's echo of a received value, a
 * report's sample of a body, a finding's `actual`): each caller keeps its own limit and mark,
 * since a client's 400, a drift report and a finding are read at different lengths.
 */

/** `text` when at most `max` characters long; else its first `max` characters and `mark`. */
export function truncate(text: string, max: number, mark = '...'): string {
  return text.length > max ? `${text.slice(0, max)}${mark}` : text;
}
