/**
 * @module prepare-contract
 * Part of `npm run build`: writes the package's document in its prepared form
 * (`dist/spec/openapi.prepared.json`, see src/contract/prepared.ts) and the standalone validators
 * a start and the first requests need (`dist/spec/validators/`, see
 * src/contract/prepared-validators.ts), so an installed mock starts without parsing YAML,
 * dereferencing or loading ajv's compiler. Files are written to a temporary name and renamed,
 * never through a symlink.
 */
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  DEFAULT_SPEC_PATH,
  loadContract,
  readSpecText,
  schemasToPrepare,
  standaloneSources,
  type Schema,
} from '../src/contract/index.js';
import { encodePrepared, parseDocument, PREPARED_PATH } from '../src/contract/prepared.js';
import {
  preparedFile,
  PREPARED_VALIDATORS_DIR,
  type Setup,
} from '../src/contract/prepared-validators.js';
import { KEYS_FILE_SCHEMA } from '../src/server/config/keys.js';
import { TIERS_FILE_SCHEMA } from '../src/server/config/tiers.js';

function refuseSymlink(path: string): void {
  try {
    if (lstatSync(path).isSymbolicLink())
      throw new Error(`refusing to write through a symlink: ${path}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function writeFresh(path: string, text: string): void {
  refuseSymlink(dirname(path));
  refuseSymlink(path);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, path);
}

const text = readSpecText(DEFAULT_SPEC_PATH);
mkdirSync(dirname(PREPARED_PATH), { recursive: true });
writeFresh(PREPARED_PATH, encodePrepared(text, await parseDocument(text)));

// Every release's operations (a release may trim a parameter away), and the configuration files.
const wanted: { setup: Setup; schema: Schema }[] = [
  { setup: 'plain', schema: KEYS_FILE_SCHEMA },
  { setup: 'plain', schema: TIERS_FILE_SCHEMA },
];
const { releases } = await loadContract();
for (const release of releases) wanted.push(...schemasToPrepare(await loadContract({ release })));

refuseSymlink(PREPARED_VALIDATORS_DIR);
rmSync(PREPARED_VALIDATORS_DIR, { recursive: true, force: true });
mkdirSync(PREPARED_VALIDATORS_DIR, { recursive: true });
const byFile = new Map(wanted.map((entry) => [preparedFile(entry.setup, entry.schema), entry]));
const sources = standaloneSources([...byFile.values()]);
[...byFile.keys()].forEach((file, k) => writeFresh(file, sources[k]));
process.stdout.write(
  `prepared ${PREPARED_PATH} and ${byFile.size} validators in ${PREPARED_VALIDATORS_DIR}\n`,
);
