/**
 * @module admin/stored-entries
 * The readers a shared store reads its entries back with (src/state/shared/entry-readers.ts): a kept
 * stub goes through `POST /__mock/stubs`'s reader (its answer judged again), a kept fault through
 * `POST /__mock/faults`'s, so what Redis holds is held to the same rules as what the admin API
 * takes. Another writer on the same Redis cannot make the double answer what the API would refuse.
 */
import type { KeptFault } from '../../state/faults/store.js';
import type { EntryReaders } from '../../state/shared/entry-readers.js';
import type { Stub } from '../../state/stubs/stubs.js';
import { readArmRequest } from '../faults/arm-request.js';
import { readStubRequest, type StubContext } from '../stubs/stub-request.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Longest id kept (a UUID is 36): a longer one was not written by a mock. */
const MAX_ID_CHARS = 100;
const isId = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS;

const STUB_MEMBERS = new Set([
  'id',
  'match',
  'patch',
  'respond',
  'remaining',
  'unchecked',
  'warnings',
]);

/** A kept stub as the request body that would have made it (`remaining` is its `times`). */
async function readKeptStub(entry: unknown, context: StubContext): Promise<Stub | undefined> {
  if (!isObject(entry) || !isId(entry.id)) return undefined;
  if (Object.keys(entry).some((name) => !STUB_MEMBERS.has(name))) return undefined;
  const { id, match, patch, respond, remaining, unchecked } = entry;
  const body: Record<string, unknown> = { match };
  if (patch !== undefined) body.patch = patch;
  if (respond !== undefined) body.respond = respond;
  if (remaining !== undefined) body.times = remaining;
  if (unchecked !== undefined) body.unchecked = unchecked;
  const read = await readStubRequest(body, context);
  return Array.isArray(read) ? undefined : { id, ...read };
}

/** A kept fault as the arm request that would have made it (its count is kept beside it). */
function readKeptFault(entry: unknown, context: StubContext): KeptFault | undefined {
  if (!isObject(entry) || !isId(entry.id) || !isObject(entry.action)) return undefined;
  if (Object.keys(entry).some((name) => !['id', 'match', 'action'].includes(name)))
    return undefined;
  const read = readArmRequest({ ...entry.action, match: entry.match ?? {}, count: 1 }, context);
  return Array.isArray(read) ? undefined : { id: entry.id, match: read.match, action: read.action };
}

export function storedEntryReaders(context: StubContext): EntryReaders {
  return {
    stub: (entry) => readKeptStub(entry, context),
    fault: (entry) => readKeptFault(entry, context),
  };
}
