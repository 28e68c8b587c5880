/**
 * @module prepared-validators.test
 * The validators the build prepares (ajv's standalone code) judge as the run-time compile does,
 * errors and filled-in defaults alike, and are found only for the very schema they were made from.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createAjv,
  loadContract,
  schemasToPrepare,
  standaloneSources,
  type Schema,
} from './index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { preparedFile, preparedValidator, type Setup } from './prepared-validators.js';

const dir = mkdtempSync(join(tmpdir(), 'prepared-validators-'));
// The standalone code requires ajv's run-time helpers, found as from the package's dist/.
symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the standalone validators of these schemas into the temporary folder. */
function prepare(wanted: { setup: Setup; schema: Schema }[]): void {
  standaloneSources(wanted).forEach((source, k) =>
    writeFileSync(preparedFile(wanted[k].setup, wanted[k].schema, dir), source),
  );
}

/** What a validator says about a copy of `data`: its verdict, its errors, and the data after (defaults filled in). */
function judge(check: (data: unknown) => boolean, errors: () => unknown, data: unknown) {
  const copy = structuredClone(data);
  const valid = check(copy);
  return { valid, errors: valid ? null : errors(), after: copy };
}

describe('prepared validators', () => {
  it("judge every operation's parameters and request body as the run-time compile does", async () => {
    const contract = await loadContract();
    const wanted = schemasToPrepare(contract);
    expect(wanted.length).toBeGreaterThan(contract.operations.length);
    prepare(wanted);
    const ajvs = {
      plain: createAjv({ useDefaults: false }),
      defaults: createAjv({ useDefaults: true }),
    };
    const inputs = [
      {},
      null,
      'text',
      { 'query:limit': 'many', 'query:offset': -1 },
      { 'query:limit': 5, 'path:product_id': 'P1' },
      { limit: 1000, filters: [{}] },
    ];
    for (const { setup, schema } of wanted) {
      const prepared = preparedValidator(setup, schema, dir)!;
      expect(prepared).toBeTypeOf('function');
      const compiled = ajvs[setup].compile(schema);
      for (const data of inputs)
        expect(judge(prepared, () => prepared.errors, data)).toEqual(
          judge(compiled, () => compiled.errors, data),
        );
    }
  });

  it('is found only for the very schema it was made from, and setup', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'integer', default: 1 } } };
    prepare([{ setup: 'defaults', schema }]);
    expect(preparedValidator('defaults', schema, dir)).toBeTypeOf('function');
    expect(preparedValidator('plain', schema, dir)).toBeUndefined();
    const edited: Schema = { ...schema, required: ['a'] };
    expect(preparedValidator('defaults', edited, dir)).toBeUndefined();
  });
});
