/**
 * @module evidence/ledger-command
 * `web-data-evidence ledger --profile P [--history DIR] -o OUTDIR`: reads a profile and the
 * document and writes `evidence.md`, `evidence.json`, `evidence.html` and, when it proposes an
 * edit, `openapi.patch` (never applied). A bad flag or file is a usage error naming it. Every file
 * is read by files/read-bounded.ts (regular files, at most 64 MiB) and written by
 * files/write-safe.ts (never through a symlink); an earlier night that is not a ledger is skipped
 * with the reason.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_PATH, loadContract, UNRELEASED } from '../contract/index.js';
import { InputFileError, readBoundedJson, readBoundedText } from '../files/read-bounded.js';
import { OutputFileError, writeFileSafely } from '../files/write-safe.js';
import { showControls } from '../text/markdown.js';
import { documentFacts } from './facts.js';
import { buildLedger, LEDGER_DEFAULTS, type Ledger } from './ledger.js';
import { checkLedger } from './ledger-schema.js';
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

/** Most earlier runs read from a `--history` folder: the last ones by name; the page shows fewer. */
export const MAX_HISTORY_FILES = 60;

export interface History {
  /** The earlier ledgers, oldest label first. */
  runs: Ledger[];
  /** One line per file left out and why (not a ledger, unreadable, beyond MAX_HISTORY_FILES). */
  skipped: string[];
}

/** Earlier runs' ledgers from a folder: `<dir>/*\/evidence.json` and `<dir>/*.json`, oldest label first. */
export function readHistory(dir: string, skip: string): History {
  if (!isFolder(dir)) throw new EvidenceUsageError(`--history ${dir}: not a folder`);
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (isFolder(path)) files.push(join(path, 'evidence.json'));
    else if (name.endsWith('.json')) files.push(path);
  }
  const candidates = files.filter((f) => resolve(f) !== resolve(skip) && exists(f));
  const skipped = candidates
    .slice(0, Math.max(0, candidates.length - MAX_HISTORY_FILES))
    .map((f) => `${f}: beyond the newest ${MAX_HISTORY_FILES} files`);
  const runs: Ledger[] = [];
  for (const file of candidates.slice(-MAX_HISTORY_FILES)) {
    let checked;
    try {
      checked = checkLedger(readBoundedJson(file));
    } catch (error) {
      if (!(error instanceof InputFileError)) throw error;
      skipped.push(error.message);
      continue;
    }
    // A report or profile kept beside the ledgers is not an error; anything else is said.
    if ('ledger' in checked) runs.push(checked.ledger);
    else skipped.push(`${file}: ${checked.problem}`);
  }
  return {
    runs: runs.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
    skipped,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
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

/** What `ledger` wrote, and the earlier runs it left out. */
export interface LedgerRun {
  written: string[];
  skipped: string[];
}

/** `ledger`: writes the four files; returns the paths written. */
export async function runLedger(argv: readonly string[]): Promise<LedgerRun> {
  const { values } = parseLedgerArgs(argv);
  if (values.help) {
    process.stdout.write(LEDGER_USAGE);
    return { written: [], skipped: [] };
  }
  if (!values.profile) throw new EvidenceUsageError('ledger needs --profile FILE (a profile.json)');
  if (!values.out) throw new EvidenceUsageError('ledger needs -o DIR for its output');
  const minObservations = positive(
    'min-observations',
    values['min-observations'],
    LEDGER_DEFAULTS.minObservations,
  );
  const specPath = resolve(values.spec ?? DEFAULT_SPEC_PATH);
  const specText = input('--spec', () => readBoundedText(specPath));
  const profile = input('--profile', () => readProfile(values.profile!));
  let contract;
  try {
    contract = await loadContract({ specPath, release: values.release ?? UNRELEASED });
  } catch (error) {
    throw new EvidenceUsageError(
      `--release/--spec: ${firstLine((error as Error).message)} (a release of the document, and an OpenAPI document)`,
    );
  }
  const out = resolve(values.out);
  if (exists(out) && !isFolder(out)) throw new EvidenceUsageError(`-o ${out}: not a folder`);
  const label = values.label ?? basename(dirname(resolve(values.profile)));
  const history = values.history
    ? readHistory(values.history, join(out, 'evidence.json'))
    : { runs: [], skipped: [] };
  const ledger = buildLedger(documentFacts(contract), profile, { label, minObservations });
  const decisionsPath = join(dirname(specPath), 'DECISIONS.md');
  const decisions = exists(decisionsPath)
    ? input('--spec', () => readBoundedText(decisionsPath))
    : '';
  const proposal = proposeChange(ledger, specText, decisions);
  const written: [string, string][] = [
    ['evidence.json', `${JSON.stringify({ ...ledger, proposal }, null, 2)}\n`],
    ['evidence.md', renderLedgerMarkdown(ledger, proposal)],
    ['evidence.html', renderLedgerHtml(ledger, proposal, history.runs, history.skipped.length)],
    ...(proposal.diff ? ([['openapi.patch', proposal.diff]] as [string, string][]) : []),
  ];
  for (const [name, text] of written) {
    try {
      writeFileSafely(join(out, name), text);
    } catch (error) {
      if (!(error instanceof OutputFileError)) throw error;
      throw new EvidenceUsageError(`-o ${error.message}`);
    }
  }
  return { written: written.map(([name]) => join(out, name)), skipped: history.skipped };
}

/** An input read under the bounded reader's rules; a problem is a usage error naming the flag. */
function input<T>(flag: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new EvidenceUsageError(`${flag} ${firstLine((error as Error).message)}`);
  }
}

const firstLine = (text: string): string => text.split('\n')[0];

/** The command: writes the files and says where (and which earlier runs it left out); 0 when done. */
export async function ledgerCommand(argv: readonly string[]): Promise<number> {
  const { written, skipped } = await runLedger(argv);
  for (const line of skipped)
    process.stderr.write(`ledger: --history skipped ${showControls(line)}\n`);
  if (written.length) process.stdout.write(`ledger: wrote ${written.join(', ')}\n`);
  return 0;
}
