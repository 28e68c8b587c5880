/**
 * @module prepare-contract
 * Part of `npm run build`: writes the package's document in its prepared form
 * (`dist/spec/openapi.prepared.json`, see src/contract/prepared.ts), so an installed mock starts
 * without parsing YAML or dereferencing. Written to a temporary file and renamed, never through a
 * symlink.
 */
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SPEC_PATH, readSpecText } from '../src/contract/load.js';
import { encodePrepared, parseDocument, PREPARED_PATH } from '../src/contract/prepared.js';

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

const text = readSpecText(DEFAULT_SPEC_PATH);
const prepared = encodePrepared(text, await parseDocument(text));
const folder = dirname(PREPARED_PATH);
mkdirSync(folder, { recursive: true });
if (isSymlink(folder) || isSymlink(PREPARED_PATH))
  throw new Error(`refusing to write through a symlink: ${PREPARED_PATH}`);
const temporary = `${PREPARED_PATH}.${process.pid}.tmp`;
writeFileSync(temporary, prepared, { flag: 'wx' });
renameSync(temporary, PREPARED_PATH);
process.stdout.write(`prepared ${PREPARED_PATH} (${prepared.length} bytes)\n`);
