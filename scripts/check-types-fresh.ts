/**
 * @module check-types-fresh
 * `npm run types:check`: fails when `src/contract/types.gen.ts` is not what `npm run types:gen`
 * would write from `spec/openapi.yaml` today, so a spec edit cannot ship with stale types.
 *
 * `npm run types:gen` writes it (`--write`) and the check regenerates it in memory, both with the
 * `openapi-typescript` Node API configured as its CLI configures itself: no flags (library
 * defaults), the Redocly config the CLI would find in the working directory (else the `minimal`
 * ruleset), the CLI's comment header; and one hook the CLI cannot take, a request body's defaulted
 * members optional (request-side.ts). `@redocly/openapi-core` is not our dependency but openapi-typescript's;
 * it resolves to the very copy openapi-typescript itself loads (hoisted beside it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { createConfig, findConfig, loadConfig } from '@redocly/openapi-core';
import { requestDefaultsOptional } from './request-side.js';

export const SPEC_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));
export const TYPES_PATH = fileURLToPath(new URL('../src/contract/types.gen.ts', import.meta.url));

/**
 * The text `npm run types:gen` would write for this document. `source` is a file URL or the YAML
 * text itself (tests pass an edited copy).
 */
export async function generateTypes(
  source: URL | string = pathToFileURL(SPEC_PATH),
): Promise<string> {
  const configPath = findConfig();
  const redocly = configPath
    ? await loadConfig({ configPath })
    : await createConfig({}, { extends: ['minimal'] });
  // No flags: the CLI leaves every unset flag undefined, so the library defaults apply as they do there.
  const ast = await openapiTS(source, {
    redocly,
    silent: true,
    transformProperty: requestDefaultsOptional(source),
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

/** Where two texts first differ, by 1-based line, or undefined when they are equal. */
export interface FirstDifference {
  line: number;
  expected: string | undefined;
  actual: string | undefined;
}

export function firstDifference(expected: string, actual: string): FirstDifference | undefined {
  if (expected === actual) return undefined;
  const want = expected.split('\n');
  const have = actual.split('\n');
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    if (want[i] !== have[i]) return { line: i + 1, expected: want[i], actual: have[i] };
  }
  return undefined;
}

/**
 * The failure text when the committed file at `path` is missing or is not `expected` (what
 * `specPath` gives today), else undefined: the check of every file generated from the document
 * but the types themselves, whose message also quotes the differing lines.
 */
export function staleGenerated(
  path: string,
  expected: string,
  specPath = SPEC_PATH,
): string | undefined {
  const shown = relative(process.cwd(), path);
  let actual = '';
  try {
    actual = readFileSync(path, 'utf8');
  } catch {
    return `${shown} is missing. Fix: run \`npm run types:gen\` and commit it.`;
  }
  const diff = firstDifference(expected, actual);
  if (!diff) return undefined;
  return [
    `${shown} is stale: it does not match ${relative(process.cwd(), specPath)} (first difference at line ${diff.line}).`,
    `  Fix: run \`npm run types:gen\` and commit ${shown} together with the spec change.`,
  ].join('\n');
}

/** Compares the committed types with a fresh generation; returns the failure text or undefined. */
export async function checkTypesFresh(
  specPath = SPEC_PATH,
  typesPath = TYPES_PATH,
): Promise<string | undefined> {
  const expected = await generateTypes(pathToFileURL(specPath));
  const actual = readFileSync(typesPath, 'utf8');
  const diff = firstDifference(expected, actual);
  if (!diff) return undefined;
  const shown = (line: string | undefined): string =>
    line === undefined ? '(end of file)' : JSON.stringify(line.trim());
  return [
    `${relative(process.cwd(), typesPath)} is stale: it does not match ${relative(process.cwd(), specPath)}.`,
    `  first difference at line ${diff.line}:`,
    `    generated now: ${shown(diff.expected)}`,
    `    committed:     ${shown(diff.actual)}`,
    `  Fix: run \`npm run types:gen\` and commit src/contract/types.gen.ts together with the spec change.`,
  ].join('\n');
}

/**
 * The command of a file generated from the document: with `--write` it writes the file, else it
 * checks it is fresh (exit 1 with the reason when stale). Shared by every generated file's script.
 */
export async function runGeneratedFile(generated: {
  path: string;
  render: () => Promise<string>;
  check: () => Promise<string | undefined>;
}): Promise<void> {
  const shown = relative(process.cwd(), generated.path);
  if (process.argv.includes('--write')) {
    writeFileSync(generated.path, await generated.render());
    console.log(`wrote ${shown}`);
    return;
  }
  const failure = await generated.check();
  if (failure) {
    console.error(failure);
    process.exitCode = 1;
    return;
  }
  console.log(`types:check: ${shown} matches spec/openapi.yaml.`);
}

async function main(): Promise<void> {
  await runGeneratedFile({
    path: TYPES_PATH,
    render: () => generateTypes(),
    check: () => checkTypesFresh(),
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
