/**
 * @module server/release-views.test
 * Serving an older release from today's records: at every release the records carry no link to an
 * operation the release lacks, and the document already says so (every link the mock leaves out
 * is a property that release's document does not declare, so the mock never leaves out a field
 * its document declares: DECISIONS 10, 84).
 */
import { describe, expect, it } from 'vitest';
import {
  BASE_PATH,
  createPruner,
  deadLinkTest,
  listItemSchema,
  loadContract,
  UNRELEASED,
} from '../contract/index.js';
import type { Collection } from '../dataset/dataset.js';
import { createApiContext, LIST_OPERATION } from './context.js';
import { sharedDataset } from '../testing/mock-app.js';

/** Records looked at per family and release: more than the first pages a client sees. */
const SAMPLE = 40;

const dataset = sharedDataset();
const { releases } = await loadContract({ release: UNRELEASED });

/** Every string of a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

describe.each(releases.filter((r) => r !== UNRELEASED))('records at release %s', (release) => {
  it('hold no link to an operation the release lacks, and lack no field its document declares', async () => {
    const contract = await loadContract({ release });
    const api = createApiContext('production', BASE_PATH, dataset, contract);
    const isDead = deadLinkTest(contract.operations, dataset.options.baseUrl);
    let checked = 0;
    for (const [family, operationId] of Object.entries(LIST_OPERATION)) {
      const op = contract.operations.find((o) => o.operationId === operationId);
      const schema = op && listItemSchema(op);
      if (!schema) continue; // a family the release does not have
      const collection = dataset[family as keyof typeof dataset] as Collection<unknown>;
      // The newest release is served as built (no view): the same two rules must hold for it.
      const view = api.prune[collection.name] ?? ((record: unknown) => record);
      expect(api.prune[collection.name] === undefined, family).toBe(
        release === contract.latestRelease,
      );
      const declared = createPruner(schema);
      for (let i = 0; i < Math.min(SAMPLE, collection.size); i++) {
        const record = collection.record(i);
        const served = view(record);
        expect(strings(served).filter(isDead)).toEqual([]);
        expect(served).toEqual(declared(record));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(SAMPLE);
  });
});
