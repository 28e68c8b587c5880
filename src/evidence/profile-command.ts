/**
 * @module evidence/profile-command
 * `web-data-evidence profile`: builds an observed profile from recorded sessions (the proxy's
 * `--recordings` folders, read by src/recordings, which trusts nothing in them) and merges it with
 * profiles given by `--merge` (the suite's, the proxy's, other nights'), into `-o FILE` (written
 * atomically) or standard output. Every input is checked first; a bad one is a usage error naming
 * the file.
 */
import { parseArgs } from 'node:util';
import { loadContract, isJsonMediaType, mediaTypeOf, type Contract } from '../contract/index.js';
import { loadRecordings, type Recording } from '../recordings/index.js';
import { undeclaredPatterns } from './declared.js';
import { observe } from './observe.js';
import { emptyProfile, mergeInto, profileText, readProfile, type Profile } from './profile.js';
import { writeProfileAtomic } from './write.js';

export const PROFILE_USAGE = `Usage: web-data-evidence profile [--recordings DIR]... [--merge FILE]... [-o FILE] [--api-version V]

Builds profile.json (what a target was seen to do; see docs/evidence.md) from recorded sessions
and merges it with other profiles. At least one --recordings or --merge.

  --recordings DIR   a folder the proxy recorded with --recordings (repeatable); --fixtures DIR
                     is its old name, still accepted
  --merge FILE       a profile.json to merge in (repeatable): the suite's, the proxy's, other nights'
  -o, --output FILE  where to write it (atomically); default: standard output
  --api-version V    read the document as of this release (which fields are declared); default: newest
`;

/** A usage error: one line, exit status 2. */
export class EvidenceUsageError extends Error {}

function bodyOf(recording: Recording): unknown {
  if (!isJsonMediaType(mediaTypeOf(recording.meta.response.headers['content-type'])))
    return undefined;
  try {
    return JSON.parse(Buffer.from(recording.body).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Folds every recording of a folder into `profile`. */
export function observeRecordings(
  profile: Profile,
  recordings: Iterable<Recording>,
  contract: Contract,
): void {
  for (const recording of recordings) {
    const { meta } = recording;
    const operation = contract.operations.find((o) => o.operationId === meta.operationId);
    const body = bodyOf(recording);
    observe(profile, {
      operationId: meta.operationId,
      method: meta.request.method,
      path: meta.request.path,
      query: meta.request.query,
      status: meta.response.status,
      headers: meta.response.headers,
      body,
      undeclared: () => undeclaredPatterns(operation, meta.response.status, body),
    });
  }
}

/** The folders of `--recordings`, or of its old name `--fixtures`; never both names at once. */
function recordingFolders(values: { recordings: string[]; fixtures: string[] }): string[] {
  if (values.recordings.length > 0 && values.fixtures.length > 0)
    throw new EvidenceUsageError(
      'profile: --recordings and --fixtures (its old name) were both given; give --recordings alone',
    );
  return values.recordings.length > 0 ? values.recordings : values.fixtures;
}

/** Runs the subcommand; returns the exit status. */
export async function profileCommand(
  argv: readonly string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        recordings: { type: 'string', multiple: true, default: [] },
        fixtures: { type: 'string', multiple: true, default: [] },
        merge: { type: 'string', multiple: true, default: [] },
        output: { type: 'string', short: 'o' },
        'api-version': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new EvidenceUsageError(
      `profile: ${(error as Error).message.split('\n')[0]} (see --help)`,
    );
  }
  if (values.help) {
    write(PROFILE_USAGE);
    return 0;
  }
  const folders = recordingFolders(values);
  if (folders.length === 0 && values.merge.length === 0)
    throw new EvidenceUsageError('profile: give at least one --recordings DIR or --merge FILE');
  const profile = emptyProfile();
  try {
    // Every input read and checked before anything is written.
    const inputs = values.merge.map((file) => readProfile(file));
    if (folders.length > 0) {
      const contract = await loadContract({ release: values['api-version'] });
      for (const dir of folders) observeRecordings(profile, loadRecordings(dir).values(), contract);
    }
    for (const input of inputs) mergeInto(profile, input);
  } catch (error) {
    throw new EvidenceUsageError(`profile: ${(error as Error).message}`);
  }
  if (values.output === undefined) write(profileText(profile));
  else {
    try {
      writeProfileAtomic(values.output, profile);
    } catch (error) {
      throw new EvidenceUsageError(
        `profile: --output ${values.output}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  return 0;
}
