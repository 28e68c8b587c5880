/**
 * @module testing/doc-usage
 * What the Markdown pages tell a reader to type: every flag given to one of the package's commands
 * (`web-data-mock`, `web-data-mock --proxy`, `web-data-contract`, `web-data-evidence <command>`)
 * and every import path of the package (`from 'web-data-api-double/...'`), each with where it is
 * written. src/package/installed.test.ts checks each against the installed package.
 */

export type Command =
  'web-data-mock' | 'web-data-mock --proxy' | 'web-data-contract' | `web-data-evidence ${string}`;

export interface FlagUse {
  command: Command;
  flag: string;
  where: string;
}

export interface ImportUse {
  specifier: string;
  where: string;
}

export interface Page {
  name: string;
  text: string;
}

const COMMAND = /\bweb-data-(mock|contract|evidence)\b/g;
// A command's words end at the end of a code span, a table cell or a shell operator.
const END_OF_COMMAND = /`|\||&&|;|\)|\s#/;
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]*/g;
const IMPORT =
  /(?:\bfrom\s+|\bimport\(\s*|\brequire\(\s*)['"](web-data-api-double(?:\/[^'"\s]*)?)['"]/g;

/** Lines with a trailing `\` joined to the next, as a shell reads them. */
function logicalLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let pending: { line: string; number: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const current = pending
      ? { line: `${pending.line} ${raw.trim()}`, number: pending.number }
      : { line: raw, number: index + 1 };
    if (/\\\s*$/.test(raw)) pending = { ...current, line: current.line.replace(/\\\s*$/, '') };
    else {
      lines.push(current);
      pending = undefined;
    }
  });
  if (pending) lines.push(pending);
  return lines;
}

function commandOf(bin: string, words: string): Command | undefined {
  if (bin === 'mock')
    return /(?<![\w-])--proxy\b/.test(words) ? 'web-data-mock --proxy' : 'web-data-mock';
  if (bin === 'contract') return 'web-data-contract';
  const sub = /^\s+([a-z]+)\b/.exec(words)?.[1];
  return sub ? `web-data-evidence ${sub}` : undefined;
}

/** Every flag the pages pass to one of the package's commands. */
export function flagsTheDocsUse(pages: Page[]): FlagUse[] {
  const uses: FlagUse[] = [];
  for (const page of pages)
    for (const { line, number } of logicalLines(page.text))
      for (const match of line.matchAll(COMMAND)) {
        const rest = line.slice(match.index + match[0].length);
        const words = rest.split(END_OF_COMMAND)[0];
        const command = commandOf(match[1], words);
        if (!command) continue;
        for (const flag of words.matchAll(FLAG))
          uses.push({ command, flag: flag[0], where: `${page.name}:${number}` });
      }
  return uses;
}

/** Every import path of the package the pages show. */
export function importsTheDocsUse(pages: Page[]): ImportUse[] {
  const uses: ImportUse[] = [];
  for (const page of pages)
    page.text.split('\n').forEach((line, index) => {
      for (const match of line.matchAll(IMPORT))
        uses.push({ specifier: match[1], where: `${page.name}:${index + 1}` });
    });
  return uses;
}

/** True when a command's help text names the flag as a word of its own. */
export function helpNames(help: string, flag: string): boolean {
  return new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(help);
}

// Another tool's flags (`podman run --init`, `npm install --omit=dev`) are its own business.
const OTHER_TOOL =
  /\b([Rr]espect|podman|docker|npm|node|curl|vitest|redocly|git|tsc|npx (?!web-data-))\b/;
const FLAG_SPAN = /`(--[a-z][a-z0-9-]*)[^`]*`/g;

/** Flags the pages name on their own (`--records FILE`), on lines that name no other tool. */
export function flagsTheDocsName(pages: Page[]): { flag: string; where: string }[] {
  const uses: { flag: string; where: string }[] = [];
  for (const page of pages)
    page.text.split('\n').forEach((line, index) => {
      if (OTHER_TOOL.test(line)) return;
      for (const match of line.matchAll(FLAG_SPAN))
        uses.push({ flag: match[1], where: `${page.name}:${index + 1}` });
    });
  return uses;
}
