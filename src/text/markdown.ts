/**
 * @module text/markdown
 * Text from a server made inert for Markdown (CommonMark with GitHub's extensions: tables,
 * autolinks, raw HTML): whatever it holds, it renders as its own characters and creates no
 * heading, list, quote, link, image, table cell, HTML or code block, and never leaves the line or
 * the span it is put in. Pure functions of a string; every Markdown writer of the project uses them
 * for every string it did not write itself.
 */

/** Every ASCII punctuation character: CommonMark lets each be backslash-escaped, and each can start syntax. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;
/** Line breaks of every kind: a value stays on its line (no block of its own, no setext underline). */
const LINE_BREAKS = /\r\n|[\n\r\u2028\u2029\u0085]/g;
/** Other control characters (tab included, which can indent a code block): shown as U+FFFD. */
const CONTROLS = /[\u0000-\u0008\u0009\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;

/**
 * One line of plain characters: line breaks as spaces, other control characters (a terminal's
 * escape sequences too) as U+FFFD. What a console line or a log needs; Markdown needs the escapes below too.
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(CONTROLS, '\uFFFD');
}

/**
 * `text` as literal inline Markdown, safe in a paragraph, a list item, a heading and a table cell:
 * every ASCII punctuation character backslash-escaped (so no `#`, `>`, `-`, `[`, `!`, `<`, `|`, `` ` ``,
 * `&`, `*`, `_` or `www.`/`http:` autolink starts anything), on one line.
 */
export function escapeMarkdownInline(text: string): string {
  return oneLine(text).replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
}

/**
 * `text` as a code span, shown verbatim: fenced by one more backtick than its longest run of
 * backticks, padded with a space when it begins or ends with one, on one line. Not for table cells
 * (GitHub splits a cell at `|` even inside a code span): use `escapeMarkdownInline` there.
 */
export function codeSpan(text: string): string {
  const content = oneLine(text);
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') || content === '' ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}
