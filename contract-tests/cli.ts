/**
 * @module contract-tests/cli
 * `web-data-contract [base-url]`: the contract suite as a command. Flags become the suite's
 * `CONTRACT_*` variables (which keep working on their own); every option is checked, and the target
 * asked once, before anything runs. Exit status: 0 the target conforms, 1 drift (failures in the
 * reports), 2 a usage error or an unreachable target, always as one line (no stack trace).
 * Keys are never flags (a command line is visible to every user of the machine): they come from
 * the environment.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadContract } from '../src/contract/index.js';
import { loadAllowlist } from './support/allowlist.js';
import { readBaseline } from './support/baseline.js';
import { readOptions, type ContractOptions } from './support/options.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = join(ROOT, 'contract-tests', 'vitest.config.ts');

export const EXIT = { conforms: 0, drift: 1, usage: 2 } as const;

/** Each flag and the variable it sets; `--help` prints them in this order. */
const FLAGS = {
  release: { env: 'CONTRACT_RELEASE', value: '<v>', help: 'release the target serves (1.0.0 ... 1.3.0, unreleased); default: the newest (the bundled mock: unreleased)' },
  strict: { env: 'CONTRACT_STRICT', help: 'undeclared fields and inferred-rule differences fail instead of warn' },
  allowlist: { env: 'CONTRACT_ALLOWLIST', value: '<file>', help: 'YAML/JSON list of accepted undeclared-field pointers (/data/*/newField)' },
  'public-base-url': { env: 'CONTRACT_PUBLIC_BASE_URL', value: '<url>', help: 'the base URL the service names in absolute hrefs (checked); default: any origin, named in a warning' },
  'xref-numbers': { env: 'CONTRACT_XREF_NUMBERS', value: '<a,b,...>', help: 'competitor part numbers the target is known to match, for the cross-reference checks' },
  baseline: { env: 'CONTRACT_BASELINE', value: '<report.json>', help: 'a previous JSON report: findings are marked new, known or gone; the summary leads with what is new' },
  'restricted-families': { env: 'CONTRACT_RESTRICTED_FAMILIES', value: '<a,b>', help: 'families the restricted key lacks (default: probed)' },
  'provoke-rate-limit': { env: 'CONTRACT_PROVOKE_RATE_LIMIT', help: "spend the rate-limit key's quota to check the 429" },
  concurrency: { env: 'CONTRACT_CONCURRENCY', value: '<n>', help: 'parallel requests (default 4)' },
  'timeout-ms': { env: 'CONTRACT_TIMEOUT_MS', value: '<ms>', help: 'per request, headers and body together (default 10000)' },
  'max-requests': { env: 'CONTRACT_MAX_REQUESTS', value: '<n>', help: 'request budget of the run (default 5000)' },
  'max-body-bytes': { env: 'CONTRACT_MAX_BODY_BYTES', value: '<n>', help: 'largest response body read (default 4194304)' },
  'max-retry-wait-ms': { env: 'CONTRACT_MAX_RETRY_WAIT_MS', value: '<ms>', help: 'longest total wait on 429s for one request (default 65000)' },
  seed: { env: 'CONTRACT_SEED', value: '<n>', help: 'seed for generated inputs (default 1)' },
  'report-dir': { env: 'CONTRACT_REPORT_DIR', value: '<dir>', help: 'where the JSON, Markdown and JUnit reports go (default reports/)' },
} as const satisfies Record<string, { env: string; value?: string; help: string }>;

type FlagName = keyof typeof FLAGS;

export function usage(): string {
  const lines = [
    'Usage: web-data-contract [options] [base-url]',
    '',
    'Checks a Web Data API target (a base URL ending in /web-data/v1) against spec/openapi.yaml and',
    'writes reports/contract-report.json, contract-summary.md and contract-junit.xml. Without a base URL',
    'it starts the bundled mock and checks that.',
    '',
    'Keys come from the environment only: CONTRACT_API_KEY (required with a base URL),',
    'CONTRACT_RESTRICTED_API_KEY, CONTRACT_RATE_LIMIT_API_KEY. Every flag below also has its variable.',
    '',
    'Options:',
    ...Object.entries(FLAGS).map(([name, f]) => `  --${`${name} ${'value' in f ? f.value : ''}`.padEnd(30)} ${f.help} [${f.env}]`),
    `  --${'help'.padEnd(30)} this text`,
    '',
    'Exit status: 0 conforms, 1 drift (see the reports), 2 usage error or unreachable target.',
    '',
    'Example: CONTRACT_API_KEY=... npx web-data-contract https://staging.example.com/web-data/v1 --baseline last/contract-report.json',
  ];
  return lines.join('\n');
}

/** A usage error: printed as one line, exit status 2. */
export class UsageError extends Error {}

/** The environment a run uses: the caller's, with the flags and the base URL on top. */
export function environmentFor(argv: readonly string[], env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; help: boolean } {
  const options = Object.fromEntries([...Object.entries(FLAGS).map(([name, f]) => [name, { type: 'value' in f ? 'string' : 'boolean' }] as const), ['help', { type: 'boolean', short: 'h' }] as const]);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split(/\. To specify|\n/)[0]} (see --help)`);
  }
  if (parsed.values.help) return { env, help: true };
  if (parsed.positionals.length > 1) throw new UsageError(`one base URL expected, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
  const out: NodeJS.ProcessEnv = { ...env };
  if (parsed.positionals[0] !== undefined) out.CONTRACT_BASE_URL = parsed.positionals[0];
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help' || value === undefined) continue;
    out[FLAGS[name as FlagName].env] = value === true ? '1' : String(value);
  }
  return { env: out, help: false };
}

/** Checks every option (files readable, release known) before anything runs. */
export async function validate(env: NodeJS.ProcessEnv): Promise<ContractOptions> {
  let options: ContractOptions;
  try {
    options = readOptions(env);
    loadAllowlist(options.allowlistPath);
    if (options.baselineFile) readBaseline(options.baselineFile);
    const contract = await loadContract({ release: options.release });
    const families = [...new Set(contract.operations.map((op) => op.family))];
    const unknown = (options.restrictedFamilies ?? []).filter((f) => !families.includes(f));
    if (unknown.length > 0) throw new Error(`CONTRACT_RESTRICTED_FAMILIES names no family of the document: ${unknown.join(', ')} (families: ${families.join(', ')})`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return options;
}

/** Asks the target once: any HTTP answer will do; none is a usage error (wrong URL, VPN down). */
export async function assertReachable(baseUrl: string, timeoutMs: number): Promise<void> {
  try {
    const answer = await fetch(baseUrl, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await answer.body?.cancel();
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((error as Error).cause ?? error);
    throw new UsageError(`target ${baseUrl} is not reachable: ${why}; nothing was tested`);
  }
}

function runVitest(env: NodeJS.ProcessEnv): Promise<number> {
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', '--config', CONFIG], { cwd: ROOT, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Whether the run wrote its report after `since` (then a non-zero exit is drift, not a broken run). */
function reportWritten(path: string, since: number): boolean {
  return existsSync(path) && statSync(path).mtimeMs >= since && JSON.parse(readFileSync(path, 'utf8')) !== null;
}

/** The command: returns the exit status. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const run = environmentFor(argv, env);
    if (run.help) {
      process.stdout.write(`${usage()}\n`);
      return EXIT.conforms;
    }
    const options = await validate(run.env);
    if (options.baseUrl) await assertReachable(options.baseUrl, options.timeoutMs);
    const started = Date.now();
    const code = await runVitest(run.env);
    if (code === 0) return EXIT.conforms;
    if (reportWritten(options.jsonFile, started)) return EXIT.drift;
    process.stderr.write(`web-data-contract: the suite did not complete (vitest exit ${code}); see the output above\n`);
    return EXIT.usage;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`web-data-contract: ${error.message}\n`);
    return EXIT.usage;
  }
}
