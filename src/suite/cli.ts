/**
 * @module suite/cli
 * `web-data-contract [base-url]`: the contract suite as a command. Flags become the suite's
 * `CONTRACT_*` variables (which keep working on their own); every option is checked (report
 * locations writable too), and the target asked, before anything runs, for any answer and with the
 * key (support/preflight.ts). Exit status: 0 the target conforms (every test passed or did not
 * apply, and the report is green), 1 drift (failures in the reports, or nothing real tested), 2 a
 * usage error, an unreachable target, a refused key or a run that wrote no report, always as one
 * line (no stack trace); an unreachable target or a refused key also writes the summary saying why.
 * Keys are never flags (a command line is visible to every user of the machine): they come from
 * the environment.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadContract } from '../contract/index.js';
import { loadAllowlist } from './support/allowlist.js';
import { readOptions, type ContractOptions } from './support/options.js';
import { refusalOf, reportRefusal } from './support/preflight.js';
import { EXIT_USAGE, UsageError } from '../usage.js';

// contract-tests/vitest.config.ts in the repository, its compiled .js in the package (dist/).
const HERE = fileURLToPath(import.meta.url);
const CONFIG = join(dirname(HERE), '..', '..', 'contract-tests', `vitest.config${extname(HERE)}`);

export const EXIT = { conforms: 0, drift: 1, usage: EXIT_USAGE } as const;

/** Each flag and the variable it sets; `--help` prints them in this order. */
export const FLAGS = {
  release: {
    env: 'CONTRACT_RELEASE',
    value: '<v>',
    help: 'release the target serves (1.0.0 ... 1.3.0, unreleased); default: the newest (the bundled mock: unreleased)',
  },
  strict: {
    env: 'CONTRACT_STRICT',
    help: 'undeclared fields and inferred-rule differences fail instead of warn',
  },
  allowlist: {
    env: 'CONTRACT_ALLOWLIST',
    value: '<file>',
    help: 'YAML/JSON list of accepted undeclared-field pointers (/data/*/newField)',
  },
  'public-base-url': {
    env: 'CONTRACT_PUBLIC_BASE_URL',
    value: '<url>',
    help: 'the base URL the service names in absolute hrefs (checked); default: any origin, named in a warning',
  },
  'xref-numbers': {
    env: 'CONTRACT_XREF_NUMBERS',
    value: '<a,b,...>',
    help: 'competitor part numbers the target is known to match, for the cross-reference checks',
  },
  baseline: {
    env: 'CONTRACT_BASELINE',
    value: '<report.json>',
    help: 'a previous JSON report (its profile.json beside it) or a profile: findings are marked new, known or gone, and what the service did is compared (removals and changes of type, format, default page size or order the document does not allow fail); the summary leads with what changed',
  },
  'drift-presence': {
    env: 'CONTRACT_DRIFT_PRESENCE',
    value: '<share>',
    help: 'a field counts as in (nearly) every record at this share of them (default 0.95)',
  },
  'drift-min-records': {
    env: 'CONTRACT_DRIFT_MIN_RECORDS',
    value: '<n>',
    help: '... and only when at least this many records were seen, then and now (default 10)',
  },
  'drift-enum-repeat': {
    env: 'CONTRACT_DRIFT_ENUM_REPEAT',
    value: '<n>',
    help: 'a string is enum-like when seen this many times per distinct value (default 10)',
  },
  'restricted-families': {
    env: 'CONTRACT_RESTRICTED_FAMILIES',
    value: '<a,b>',
    help: 'families the restricted key lacks (default: probed)',
  },
  'provoke-rate-limit': {
    env: 'CONTRACT_PROVOKE_RATE_LIMIT',
    help: "spend the rate-limit key's quota to check the 429",
  },
  concurrency: { env: 'CONTRACT_CONCURRENCY', value: '<n>', help: 'parallel requests (default 4)' },
  'timeout-ms': {
    env: 'CONTRACT_TIMEOUT_MS',
    value: '<ms>',
    help: 'per request, headers and body together (default 10000)',
  },
  'max-requests': {
    env: 'CONTRACT_MAX_REQUESTS',
    value: '<n>',
    help: 'request budget of the run (default 5000)',
  },
  'max-body-bytes': {
    env: 'CONTRACT_MAX_BODY_BYTES',
    value: '<n>',
    help: 'largest response body read (default 4194304)',
  },
  'max-retry-wait-ms': {
    env: 'CONTRACT_MAX_RETRY_WAIT_MS',
    value: '<ms>',
    help: 'longest total wait on 429s for one request (default 65000)',
  },
  seed: { env: 'CONTRACT_SEED', value: '<n>', help: 'seed for generated inputs (default 1)' },
  'report-dir': {
    env: 'CONTRACT_REPORT_DIR',
    value: '<dir>',
    help: 'where the JSON, Markdown and JUnit reports and profile.json go (default reports/)',
  },
  profile: {
    env: 'CONTRACT_PROFILE_FILE',
    value: '<file>',
    help: 'where the observed profile goes (default <report-dir>/profile.json)',
  },
} as const satisfies Record<string, { env: string; value?: string; help: string }>;

type FlagName = keyof typeof FLAGS;

export function usage(): string {
  const lines = [
    'Usage: web-data-contract [options] [base-url]',
    '',
    'Checks a Web Data API target (a base URL ending in /web-data/v1) against spec/openapi.yaml and',
    'writes reports/contract-report.json, contract-summary.md, contract-junit.xml and profile.json. Without a base URL',
    'it starts the bundled mock and checks that.',
    '',
    'Keys come from the environment only: CONTRACT_API_KEY (required with a base URL),',
    'CONTRACT_RESTRICTED_API_KEY, CONTRACT_RATE_LIMIT_API_KEY. Every flag below also has its variable.',
    '',
    'Options:',
    ...Object.entries(FLAGS).map(
      ([name, f]) =>
        `  --${`${name} ${'value' in f ? f.value : ''}`.padEnd(30)} ${f.help} [${f.env}]`,
    ),
    `  --${'help'.padEnd(30)} this text`,
    '',
    'Exit status: 0 conforms, 1 drift (see the reports), 2 usage error, unreachable target or refused key.',
    '',
    'Example: CONTRACT_API_KEY=... npx web-data-contract https://staging.example.com/web-data/v1 --baseline last/contract-report.json',
  ];
  return lines.join('\n');
}

/** A run that wrote no report (vitest could not start, or died): exit status 2 as well. */
export class IncompleteRun extends Error {}

/** The environment a run uses: the caller's, with the flags and the base URL on top. */
export function environmentFor(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { env: NodeJS.ProcessEnv; help: boolean; given: Map<string, string> } {
  const options = Object.fromEntries<NonNullable<ParseArgsConfig['options']>[string]>([
    ...Object.entries(FLAGS).map(
      ([name, f]) => [name, { type: 'value' in f ? 'string' : 'boolean' }] as const,
    ),
    ['help', { type: 'boolean', short: 'h' }] as const,
  ]);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split(/\. To specify|\n/)[0]} (see --help)`);
  }
  const given = new Map<string, string>();
  if (parsed.values.help) return { env, help: true, given };
  if (parsed.positionals.length > 1)
    throw new UsageError(
      `one base URL expected, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`,
    );
  const out: NodeJS.ProcessEnv = { ...env };
  if (parsed.positionals[0] !== undefined) {
    out.CONTRACT_BASE_URL = parsed.positionals[0];
    given.set('CONTRACT_BASE_URL', 'the base URL argument');
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help' || value === undefined) continue;
    const variable = FLAGS[name as FlagName].env;
    out[variable] = value === true ? '1' : String(value);
    given.set(variable, `--${name}`);
  }
  return { env: out, help: false, given };
}

/**
 * Makes sure the reports can be written where they go: the directory exists or is created (one
 * level at a time, so a path no directory can be made in is refused at once), and is writable.
 */
export function assertWritableDir(dir: string, name: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  if (!statSync(at).isDirectory()) throw new Error(`${name} ${dir}: ${at} is not a directory`);
  try {
    accessSync(at, constants.W_OK);
    for (const d of missing) mkdirSync(d);
  } catch (error) {
    throw new Error(
      `${name} ${dir}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** A regular file this process can read; otherwise an error naming the variable and the file. */
function assertReadableFile(path: string, name: string): void {
  try {
    accessSync(path, constants.R_OK);
    if (!statSync(path).isFile()) throw new Error('not a regular file');
  } catch (error) {
    throw new Error(
      `${name} ${path}: cannot read a JSON report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** Checks every option (files readable, report locations writable, release known) before anything runs. */
export async function validate(env: NodeJS.ProcessEnv): Promise<ContractOptions> {
  let options: ContractOptions;
  try {
    options = readOptions(env);
    loadAllowlist(options.allowlistPath);
    // Only that it can be read: a baseline whose contents cannot be used fails the run, which still
    // writes tonight's report and profile, so the next night has a fresh baseline.
    if (options.baselineFile) assertReadableFile(options.baselineFile, 'CONTRACT_BASELINE');
    const contract = await loadContract({ release: options.release });
    const families = [...new Set(contract.operations.map((op) => op.family))];
    const unknown = (options.restrictedFamilies ?? []).filter((f) => !families.includes(f));
    if (unknown.length > 0)
      throw new Error(
        `CONTRACT_RESTRICTED_FAMILIES names no family of the document: ${unknown.join(', ')} (families: ${families.join(', ')})`,
      );
    // Last, so a run refused for another reason leaves no directory behind.
    assertWritableDir(options.reportDir, 'CONTRACT_REPORT_DIR');
    assertWritableDir(dirname(options.jsonFile), 'CONTRACT_JSON_REPORT');
    assertWritableDir(dirname(options.summaryFile), 'CONTRACT_SUMMARY_FILE');
    assertWritableDir(dirname(options.junitFile), 'CONTRACT_JUNIT_FILE');
    assertWritableDir(dirname(options.profileFile), 'CONTRACT_PROFILE_FILE');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return options;
}

/** Where the suite's output goes: the terminal (the command), or kept for an error message (the library). */
export type SuiteOutput = 'inherit' | 'quiet';

/** Output kept of a quiet run: its end, where vitest says what went wrong. */
const KEPT_OUTPUT_CHARS = 4000;

/**
 * vitest's command, from the user's install: an optional peer dependency (the mock alone does not
 * need it), so a missing one is a usage error naming the line that adds it (exit 2).
 */
export function vitestEntry(resolveFrom: string = import.meta.url): string {
  let manifest: string;
  try {
    manifest = createRequire(resolveFrom).resolve('vitest/package.json');
  } catch {
    // The package's own manifest, by its name (its `exports` lists it), in the repository or installed.
    const { peerDependencies } = createRequire(import.meta.url)(
      'web-data-api-double/package.json',
    ) as { peerDependencies?: Record<string, string> };
    const range = peerDependencies?.vitest ?? '';
    throw new UsageError(
      `the contract suite runs on vitest, an optional peer dependency that is not installed: npm install --save-dev vitest@${range}`,
    );
  }
  return join(dirname(manifest), 'vitest.mjs');
}

function runVitest(
  env: NodeJS.ProcessEnv,
  output: SuiteOutput,
): Promise<{ code: number; tail: string }> {
  const vitest = vitestEntry();
  return new Promise((resolve) => {
    // The user's working directory stays the run's: relative report and baseline paths are theirs.
    // `runner` loads the config in memory: the default bundler writes a temporary file beside it,
    // which fails (EACCES) where the package is installed read-only, as in the container image.
    const args = [vitest, 'run', '--config', CONFIG, '--configLoader', 'runner'];
    const child = spawn(process.execPath, args, {
      env,
      stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-KEPT_OUTPUT_CHARS));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), tail }));
  });
}

/** When a file was last written; undefined when there is none. */
function mtimeOf(path: string): number | undefined {
  return existsSync(path) ? statSync(path).mtimeMs : undefined;
}

/** The verdict of the report this run wrote (changed since `before`); undefined when it wrote none. */
export function verdictOf(
  path: string,
  before: number | undefined,
): { passed: boolean } | undefined {
  try {
    const written = mtimeOf(path);
    if (written === undefined || written === before) return undefined;
    const report = JSON.parse(readFileSync(path, 'utf8')) as { passed?: unknown } | null;
    return typeof report?.passed === 'boolean' ? { passed: report.passed } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The exit status of a completed run: the report decides (a run that tested nothing real, or whose
 * reports list a failure, is not a conforming one even when every test passed), and so does vitest.
 */
export function exitOf(
  vitestCode: number,
  verdict: { passed: boolean } | undefined,
): number | undefined {
  if (!verdict) return undefined;
  return vitestCode === 0 && verdict.passed ? EXIT.conforms : EXIT.drift;
}

/** A completed run: its exit status and where its JSON report is. */
export interface SuiteResult {
  exit: number;
  jsonFile: string;
}

/**
 * Runs the suite in the environment given (its `CONTRACT_*` variables): options checked, target
 * asked once, then vitest. A usage error or an unreachable target throws a UsageError; a run that
 * wrote no report throws an Error naming vitest's exit (and, when quiet, the end of its output).
 */
export async function runSuite(
  env: NodeJS.ProcessEnv,
  output: SuiteOutput = 'inherit',
): Promise<SuiteResult> {
  vitestEntry();
  const options = await validate(env);
  if (options.baseUrl) {
    const contract = await loadContract({ release: options.release });
    const refused = await refusalOf({ ...options, baseUrl: options.baseUrl }, contract);
    if (refused) {
      reportRefusal(options, options.baseUrl, contract.release, refused);
      throw new UsageError(refused);
    }
  }
  const before = mtimeOf(options.jsonFile);
  const { code, tail } = await runVitest(env, output);
  const exit = exitOf(code, verdictOf(options.jsonFile, before));
  if (exit !== undefined) return { exit, jsonFile: options.jsonFile };
  const seeAbove = output === 'inherit' ? 'see the output above' : `its output ended:\n${tail}`;
  throw new IncompleteRun(
    `the suite did not complete (vitest exit ${code}, no report written); ${seeAbove}`,
  );
}

/** The command: returns the exit status. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const run = environmentFor(argv, env);
    if (run.help) {
      process.stdout.write(`${usage()}\n`);
      return EXIT.conforms;
    }
    return (await runSuite(run.env)).exit;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof IncompleteRun)) throw error;
    process.stderr.write(`web-data-contract: ${inUsersWords(error.message, argv, env)}\n`);
    return EXIT.usage;
  }
}

/**
 * A message as the user gave the input: a variable the command set from an argument or a flag is
 * named as that argument or flag (`the base URL argument`, `--baseline`), not as the variable.
 */
function inUsersWords(message: string, argv: readonly string[], env: NodeJS.ProcessEnv): string {
  let given: Map<string, string>;
  try {
    given = environmentFor(argv, env).given;
  } catch {
    return message;
  }
  let out = message;
  for (const [variable, name] of given)
    out = out.replace(new RegExp(`\\b${variable}\\b`, 'g'), name);
  return out;
}
