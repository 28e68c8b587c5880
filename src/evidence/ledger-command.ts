/**
 * @module evidence/ledger-command
 * `web-data-evidence ledger --profile P [--history DIR] -o OUTDIR`: reads a profile and the
 * document and writes `evidence.md`, `evidence.json`, `evidence.html` and, when it proposes an
 * edit, `openapi.patch` (never applied). A bad flag or file is a usage error naming it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, loadContract, UNRELEASED } from '../contract/index.js';
import { documentFacts } from './facts.js';
import { buildLedger, LEDGER_DEFAULTS, LEDGER_FORMAT, type Ledger } from './ledger.js';
import { proposeChange } from './patch.js';
import { EvidenceUsageError } from './profile-command.js';
import { readProfile } from './profile.js';
import { renderLedgerHtml } from './render-html.js';
import { renderLedgerMarkdown } from './render-md.js';

export const LEDGER_USAGE = `Usage: web-data-evidence ledger --profile FILE -o DIR [options]

The document's facts against what a target was seen to do (see docs/evidence.md): every fact
confirmed, contradicted or unseen, candidate facts, and a proposed change to the document.

  --profile <file>         the observed profile (profile.json of a contract run, the proxy's --profile)
  -o, --out <dir>          where evidence.md, evidence.json, evidence.html (and openapi.patch) go
  --history <dir>          earlier runs kept: folders holding evidence.json (or such files); the
                           page shows their verdicts night by night
  --label <name>           the run's name (default: the profile's folder name)
  --release <v>            judge against this release's document (default: unreleased, the whole document)
  --spec <file>            the document (default spec/openapi.yaml)
  --min-observations <n>   fewest records for a candidate field to count as consistent (default ${LEDGER_DEFAULTS.minObservations})
  -h, --help               this text
`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new EvidenceUsageError(`--${name} must be a whole number >= 1 (got "${raw}")`);
  return n;
}

/** Earlier runs' ledgers from a folder: `<dir>/*\/evidence.json` and `<dir>/*.json`, oldest label first. */
export function readHistory(dir: string, skip: string): Ledger[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new EvidenceUsageError(`--history ${dir}: not a folder`);
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (existsSync(join(path, 'evidence.json'))) files.push(join(path, 'evidence.json'));
    } else if (name.endsWith('.json')) files.push(path);
  }
  const runs: Ledger[] = [];
  for (const file of files) {
    if (resolve(file) === resolve(skip)) continue;
    let parsed: { format?: unknown };
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown };
    } catch (error) {
      throw new EvidenceUsageError(`--history: ${file} is not JSON (${(error as Error).message})`);
    }
    if (parsed.format === LEDGER_FORMAT) runs.push(parsed as Ledger);
  }
  return runs.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

const LEDGER_OPTIONS = {
  profile: { type: 'string' },
  out: { type: 'string', short: 'o' },
  history: { type: 'string' },
  label: { type: 'string' },
  release: { type: 'string' },
  spec: { type: 'string' },
  'min-observations': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags; an unknown or malformed one is a usage error naming it. */
function parseLedgerArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: LEDGER_OPTIONS, strict: true });
  } catch (error) {
    throw new EvidenceUsageError(`ledger: ${(error as Error).message}`);
  }
}

/** `ledger`: writes the four files; returns the paths written. */
export async function runLedger(argv: readonly string[]): Promise<string[]> {
  const { values } = parseLedgerArgs(argv);
  if (values.help) {
    process.stdout.write(LEDGER_USAGE);
    return [];
  }
  if (!values.profile) throw new EvidenceUsageError('ledger needs --profile FILE (a profile.json)');
  if (!values.out) throw new EvidenceUsageError('ledger needs -o DIR for its output');
  const minObservations = positive(
    'min-observations',
    values['min-observations'],
    LEDGER_DEFAULTS.minObservations,
  );
  const specPath = resolve(values.spec ?? DEFAULT_SPEC_PATH);
  if (!existsSync(specPath)) throw new EvidenceUsageError(`--spec ${specPath}: no such file`);
  let profile;
  try {
    profile = readProfile(values.profile);
  } catch (error) {
    throw new EvidenceUsageError(`--profile ${(error as Error).message}`);
  }
  let contract;
  try {
    contract = await loadContract({ specPath, release: values.release ?? UNRELEASED });
  } catch (error) {
    throw new EvidenceUsageError(`--release/--spec: ${(error as Error).message}`);
  }
  const out = resolve(values.out);
  const label = values.label ?? basename(dirname(resolve(values.profile)));
  const history = values.history ? readHistory(values.history, join(out, 'evidence.json')) : [];
  const ledger = buildLedger(documentFacts(contract), profile, { label, minObservations });
  const decisionsPath = join(dirname(specPath), 'DECISIONS.md');
  const decisions = existsSync(decisionsPath) ? readFileSync(decisionsPath, 'utf8') : '';
  const proposal = proposeChange(ledger, readFileSync(specPath, 'utf8'), decisions);
  mkdirSync(out, { recursive: true });
  const written: [string, string][] = [
    ['evidence.json', `${JSON.stringify({ ...ledger, proposal }, null, 2)}\n`],
    ['evidence.md', renderLedgerMarkdown(ledger, proposal)],
    ['evidence.html', renderLedgerHtml(ledger, proposal, history)],
    ...(proposal.diff ? ([['openapi.patch', proposal.diff]] as [string, string][]) : []),
  ];
  for (const [name, text] of written) writeFileSync(join(out, name), text);
  return written.map(([name]) => join(out, name));
}

/** The command: writes the files and says where; 0 when done. */
export async function ledgerCommand(argv: readonly string[]): Promise<number> {
  const files = await runLedger(argv);
  if (files.length) process.stdout.write(`ledger: wrote ${files.join(', ')}\n`);
  return 0;
}
