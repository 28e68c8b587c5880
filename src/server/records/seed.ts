/**
 * @module records/seed
 * Records a user brings at start (`--records FILE`, `startMock({ records })`): `{ family: [records] }`
 * in JSON or YAML, checked like a test's put and laid over the generated dataset before the mock
 * serves, so they are part of the seed a reset returns to (DECISIONS 98). The file is read as a
 * regular file of bounded size; every message names the file (or the option), the JSON pointer
 * and the rule, never the file's text.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Contract, Validators } from '../../contract/index.js';
import type { Dataset } from '../../dataset/dataset.js';
import { overlayDataset, type RecordEdit } from '../../state/records/overlay.js';
import { ConfigFileError, parseJsonFile } from '../config/config-file.js';
import { checkRecord, problemLine, recordFamilies } from './record-schema.js';

/** yaml loads only when a --records file is YAML: a start without one must not pay for it. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text, { maxAliasCount: 100 });
}

/** A records file larger than this is refused (a few thousand live parts fit). */
export const MAX_RECORDS_FILE_BYTES = 32 * 1024 * 1024;
/** At most this many records at start. */
export const MAX_START_RECORDS = 100_000;
/** At most this many problems are listed. */
const MAX_PROBLEMS = 20;

/** Records at start, with what to call their origin in a message (the file, or the option). */
export interface StartRecords {
  source: string;
  families: unknown;
}

/** The records file's data: a regular file, at most MAX_RECORDS_FILE_BYTES, JSON (`.json`) or YAML. */
export function readRecordsFile(file: string): StartRecords {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new ConfigFileError(
      `--records ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigFileError(`--records ${file}: not a regular file`);
    if (stat.size > MAX_RECORDS_FILE_BYTES)
      throw new ConfigFileError(
        `--records ${file}: ${stat.size} bytes; the bound is ${MAX_RECORDS_FILE_BYTES} bytes`,
      );
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    text = buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
  // The text read within the bound above, not the file read again.
  if (/\.json$/i.test(file))
    return { source: `--records ${file}`, families: parseJsonFile(file, text) };
  try {
    return {
      source: `--records ${file}`,
      families: parseYaml(text),
    };
  } catch (error) {
    const at = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new ConfigFileError(
      `--records ${file}: not valid YAML or JSON${at ? ` (at line ${at.line}, column ${at.col})` : ''}`,
    );
  }
}

/** The dataset with the start records over it; a ConfigFileError (exit 2) naming every problem. */
export function withStartRecords(
  dataset: Dataset,
  start: StartRecords,
  contract: Contract,
  validators: Validators,
): Dataset {
  const { source, families: given } = start;
  const refuse = (lines: string[]) => {
    const shown = lines.slice(0, MAX_PROBLEMS);
    const more = lines.length > shown.length ? `\n(${lines.length - shown.length} more)` : '';
    return new ConfigFileError(`${shown.map((l) => `${source}: ${l}`).join('\n')}${more}`);
  };
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw refuse(['"" type: object: records are { family: [records] }']);
  const families = recordFamilies(contract, dataset);
  const edits: RecordEdit[] = [];
  const problems: string[] = [];
  for (const [name, records] of Object.entries(given)) {
    const pointer = `/${name.slice(0, 100).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const info = families.get(name as never);
    if (!info) {
      problems.push(`"${pointer}" unknown family (families: ${[...families.keys()].join(', ')})`);
      continue;
    }
    if (!Array.isArray(records)) {
      problems.push(`"${pointer}" type: array: a family's records are a list`);
      continue;
    }
    if (edits.length + records.length > MAX_START_RECORDS)
      throw refuse([`more than ${MAX_START_RECORDS} records`]);
    records.forEach((record: unknown, i) => {
      const checked = checkRecord(info, validators, record, dataset.options.baseUrl);
      if (checked.ok)
        edits.push({ op: 'put', family: info.family, id: checked.id, record: checked.record });
      else
        for (const p of checked.problems)
          problems.push(problemLine({ ...p, pointer: `${pointer}/${i}${p.pointer}` }));
    });
  }
  if (problems.length > 0) throw refuse(problems);
  return overlayDataset(dataset, edits).dataset;
}
