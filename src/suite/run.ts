/**
 * @module suite/run
 * `runContract(options)`: the contract suite from code. It runs exactly what `web-data-contract`
 * runs (same checks, same child vitest process, same files written) and resolves to the JSON
 * report the command writes, so a user's own test runner can assert on it. Options are the
 * command's flags in camelCase, plus the keys (which the command takes from the environment only).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAGS, runSuite } from './cli.js';
import type { RunContractOptions } from '../api/types.js';
import type { ContractReport } from './support/report.js';

export type { ContractReport } from './support/report.js';
export type { Finding } from './support/findings.js';
export type { CoverageCell } from './support/coverage.js';

const KEYS = {
  apiKey: 'CONTRACT_API_KEY',
  restrictedApiKey: 'CONTRACT_RESTRICTED_API_KEY',
  rateLimitApiKey: 'CONTRACT_RATE_LIMIT_API_KEY',
} as const;

type Camel<S extends string> = S extends `${infer A}-${infer B}`
  ? `${A}${Capitalize<Camel<B>>}`
  : S;
/** Compile-time: every option is a flag of the command, a key, the base URL or the output mode. */
type Unmapped = Exclude<
  keyof RunContractOptions,
  Camel<keyof typeof FLAGS> | keyof typeof KEYS | 'baseUrl' | 'output'
>;
const everyOptionMapped: Record<Unmapped, never> = {};
void everyOptionMapped;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The run's environment: the caller's without any `CONTRACT_*` or vitest variable (a call is
 * decided by its arguments, also from inside the user's own vitest run), the options on top.
 */
export function environmentOf(
  options: RunContractOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string | undefined> {
  const out = Object.fromEntries(
    Object.entries(env).filter(([k]) => !k.startsWith('CONTRACT_') && !k.startsWith('VITEST')),
  );
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || name === 'output') continue;
    if (name === 'baseUrl') out.CONTRACT_BASE_URL = String(value);
    else if (name in KEYS) out[KEYS[name as keyof typeof KEYS]] = String(value);
    else {
      const flag = FLAGS[kebab(name) as keyof typeof FLAGS];
      // A library call's mistake, as every function of the package says it (src/api/option-names.ts).
      if (!flag) throw new TypeError(`runContract: unknown option "${name}"`);
      out[flag.env] = Array.isArray(value)
        ? value.join(',')
        : typeof value === 'boolean'
          ? value
            ? '1'
            : '0'
          : String(value);
    }
  }
  out.CONTRACT_REPORT_DIR ??= mkdtempSync(join(tmpdir(), 'web-data-contract-'));
  return out;
}

/**
 * Runs the contract suite; resolves to its JSON report (`passed` is the verdict; the command exits
 * 0 exactly when it is true, and so does vitest run bare). Rejects with a one-line message on bad
 * options, an unreachable target or a refused key, as the command exits 2.
 */
export async function runContract(options: RunContractOptions = {}): Promise<ContractReport> {
  const { jsonFile } = await runSuite(environmentOf(options), options.output ?? 'quiet');
  return JSON.parse(readFileSync(jsonFile, 'utf8')) as ContractReport;
}
