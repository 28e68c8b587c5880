/**
 * @module testing/recipes
 * The runnable recipes of docs/testing.md, read from the page itself so it cannot drift: a fenced
 * block whose info string says `recipe=<name> file=<path>` is a file of that recipe; a `sh` block
 * with `recipe=<name>` is one CI step of it, run in a shell of its own, in order (`from=<other>`
 * on a recipe's first block: that recipe's files are used). Run in a folder of a project where the
 * package is installed (src/package/recipes.test.ts) or linked (src/api/runners.test.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Recipe {
  name: string;
  /** The files the recipe writes, by path in its folder. */
  files: Map<string, string>;
  /** Its shell steps, in order. */
  steps: string[];
  /** Another recipe whose files this one uses. */
  from: string | undefined;
}

const FENCE = /^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm;

function attributes(info: string): Map<string, string> {
  return new Map([...info.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

/** Every recipe of a page, by name, in the order the page shows them. */
export function recipesOf(markdown: string): Map<string, Recipe> {
  const recipes = new Map<string, Recipe>();
  for (const [, language, info, code] of markdown.matchAll(FENCE)) {
    const attrs = attributes(info);
    const name = attrs.get('recipe');
    if (!name) continue;
    let recipe = recipes.get(name);
    if (!recipe) {
      recipe = { name, files: new Map(), steps: [], from: undefined };
      recipes.set(name, recipe);
    }
    recipe.from ??= attrs.get('from');
    const file = attrs.get('file');
    if (file) recipe.files.set(file, code);
    else if (language === 'sh') recipe.steps.push(code.trim());
    else throw new Error(`a ${language} block of recipe ${name} has no file=`);
  }
  return recipes;
}

/** The recipes of docs/testing.md under `root` (the repository, or the installed package). */
export function testingRecipes(root: string): Map<string, Recipe> {
  return recipesOf(readFileSync(join(root, 'docs', 'testing.md'), 'utf8'));
}

export interface StepRun {
  step: string;
  status: number | null;
  output: string;
}

function runStep(step: string, cwd: string, env: NodeJS.ProcessEnv): Promise<StepRun> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', step], { cwd, env });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ step, status, output }));
  });
}

/** `KEY=value` lines a step appended to `$GITHUB_ENV`, as Actions hands them to later steps. */
function readGithubEnv(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const pairs = lines
    .map((line) => /^(\w+)=(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match): [string, string] => [match[1], match[2]]);
  return Object.fromEntries(pairs);
}

/** The caller's environment without the variables that would name a mock to the recipes. */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([k]) => !/^(VITEST|CONTRACT_|WEB_DATA_|MOCK_|NODE_TEST|NODE_OPTIONS$|GITHUB_ENV$)/.test(k),
  );
  return { ...Object.fromEntries(kept), NO_COLOR: '1', ...extra };
}

/**
 * Writes the recipe's files into `folder` and runs its steps there, each in a new shell, with
 * `4010` read as `port` and `$GITHUB_ENV` carried between steps. A step that stops a mock runs even
 * after a failed one (as `if: always()`). Resolves to every step's run; rejects on the first failure.
 */
export async function runRecipe(
  recipe: Recipe,
  recipes: Map<string, Recipe>,
  folder: string,
  options: { port: number; env: NodeJS.ProcessEnv },
): Promise<StepRun[]> {
  const files = recipe.from ? recipes.get(recipe.from)!.files : recipe.files;
  for (const [path, code] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), code);
  }
  const githubEnv = join(folder, '.github-env');
  writeFileSync(githubEnv, '');
  const runs: StepRun[] = [];
  let failed: StepRun | undefined;
  for (const step of recipe.steps) {
    const always = /\bstop --port\b/.test(step);
    if (failed && !always) continue;
    const env = { ...options.env, GITHUB_ENV: githubEnv, ...readGithubEnv(githubEnv) };
    const run = await runStep(step.replaceAll('4010', String(options.port)), folder, env);
    runs.push(run);
    if (run.status !== 0) failed ??= run;
  }
  if (failed)
    throw new Error(
      `recipe ${recipe.name}: step \`${failed.step}\` exited ${failed.status}\n${runs.map((r) => `$ ${r.step}\n${r.output.slice(-4000)}`).join('\n')}`,
    );
  return runs;
}

/**
 * How many tests the runs reported passing (vitest's `Tests  N passed`; node:test's `# pass N` from
 * its TAP reporter, Node 20's default off a terminal, or `ℹ pass N` from the spec reporter, Node 24's),
 * so a recipe whose tests were never found does not pass for want of a failure.
 */
export function testsPassed(runs: StepRun[]): number {
  let passed = 0;
  for (const { output } of runs)
    for (const m of output.matchAll(/^\s*Tests\s+(\d+) passed|^(?:# |\u2139 )pass (\d+)$/gm))
      passed += Number(m[1] ?? m[2]);
  return passed;
}
