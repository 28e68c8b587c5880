/**
 * @module config-file
 * Reading a JSON file the user hands the mock (keys, tiers) and checking it against its schema
 * with the project's one ajv setup. Every message names the file, the entry and the field and the
 * rule broken, never a value from the file: a keys file holds secrets, and JSON.parse's own
 * messages quote the text around the error.
 */
import { readFileSync } from 'node:fs';
import { compileSchema, type Schema, type SchemaProblem } from '../../contract/index.js';

/** The outer shape every configuration file shares: `{ "$comment"?, "$schema"?, "<root>": ... }`. */
export function fileSchema(root: string, schema: Schema): Schema {
  return {
    type: 'object',
    required: [root],
    additionalProperties: false,
    properties: { $comment: { type: 'string' }, $schema: { type: 'string' }, [root]: schema },
  };
}

/**
 * A configuration file the mock refuses to start with: the user's input, like a flag, which the
 * command maps to its usage error (exit 2).
 */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/** Line and column of a character offset, for a parse error that must not quote the text. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** A member name safe to print: a keys file's field names and key names, never a stray secret. */
const PRINTABLE_NAME = /^[A-Za-z0-9._$-]{1,100}$/;

/**
 * The first object member named twice in one object of valid JSON text, with where it is:
 * JSON.parse keeps the last silently (two tiers named alike, a key with two `secret`s).
 */
export function duplicateMember(text: string): { name: string; offset: number } | undefined {
  const objects: (Set<string> | undefined)[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = objects.at(-1);
      if (expectName && names) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (names.has(name)) return { name, offset: i };
        names.add(name);
      }
      expectName = false;
      i = end;
    } else if (ch === '{' || ch === '[') {
      objects.push(ch === '{' ? new Set() : undefined);
      expectName = ch === '{';
    } else if (ch === '}' || ch === ']') {
      objects.pop();
    } else if (ch === ',') {
      expectName = objects.at(-1) !== undefined;
    }
  }
  return undefined;
}

/** The file's JSON value; a missing file, bad JSON or a member named twice is a ConfigFileError naming the file (not its text). */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parseJsonFile(file, text);
}

/** The JSON value of a file's text already read; bad JSON or a member named twice is a ConfigFileError naming the file. */
export function parseJsonFile(file: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    throw new ConfigFileError(
      `${file}: not valid JSON${position ? ` (at ${lineAndColumn(text, Number(position[1]))})` : ''}`,
    );
  }
  const twice = duplicateMember(text);
  if (twice) {
    const name = PRINTABLE_NAME.test(twice.name) ? `"${twice.name}"` : 'a member name';
    throw new ConfigFileError(
      `${file}: ${name} appears twice in one object (at ${lineAndColumn(text, twice.offset)}); JSON would keep only the last, so remove or rename one`,
    );
  }
  return value;
}

/**
 * Checks `data` against `schema`; throws one ConfigFileError listing every problem, each as
 * `file: <entry>: <field> <message> (rule: ...)`, the entry named by `describe(pointer)`.
 */
export function checkAgainstSchema(
  file: string,
  data: unknown,
  schema: Schema,
  describe: (pointer: string) => string,
): void {
  const problems = compileSchema(schema)(data);
  if (problems.length > 0)
    throw new ConfigFileError(problems.map((p) => formatProblem(file, p, describe)).join('\n'));
}

function formatProblem(
  file: string,
  problem: SchemaProblem,
  describe: (pointer: string) => string,
): string {
  return `${file}: ${describe(problem.pointer)} ${problem.message} (rule: ${problem.rule})`;
}
