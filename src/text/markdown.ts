/**
 * @module text/markdown
 * Strings from a server or a file, made inert for Markdown (GitHub's, CommonMark with GFM): as
 * escaped text (`escapeMarkdownInline`) or as a code span (`codeSpan`). Neither lets a value start
 * a line, a heading, a list, a fence, an image, a link, an HTML tag or a table cell of its own:
 * line breaks and other control characters (and the bidi controls that reorder what a reader
 * sees) are shown as `\u` escapes, and a code span is fenced by more backticks than any run in
 * the value. `fenceFor` picks a code fence no line of a block can close. Every Markdown writer of
 * the project uses them for every string it did not write itself.
 */

/** Line breaks, other C0/C1 controls, and the Unicode separators and bidi controls. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A control character as the escape a reader can see: `\n` -> `\u000a`. */
export function showControls(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every ASCII punctuation character may be backslash-escaped in CommonMark. */
const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** `text` as Markdown text that renders as itself: no emphasis, link, image, heading, tag or cell break. */
export function escapeMarkdownInline(text: string): string {
  return showControls(text).replace(PUNCTUATION, (c) => `\\${c}`);
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * `text` as a code span: fenced by one backtick more than its longest run, padded when it starts
 * or ends with a backtick or a space. In a table cell, `|` still needs its escape (GFM reads it
 * before the span): a table's cell function adds it.
 */
export function codeSpan(text: string): string {
  const shown = showControls(text);
  const fence = '`'.repeat(longestBacktickRun(shown) + 1);
  const pad = /^[` ]|[` ]$/.test(shown) || shown === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** A code fence (at least three backticks) longer than any backtick run in `block`. */
export function fenceFor(block: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(block) + 1));
}
