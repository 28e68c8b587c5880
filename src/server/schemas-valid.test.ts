/**
 * @module schemas-valid.test
 * The validators skip ajv's check of each schema against the JSON Schema 2020-12 meta-schema at
 * run time (it costs more than the rest of a start's compiling): every schema they are given is
 * checked here instead, the document's and those of our configuration files.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadContract, UNRELEASED, type Schema } from '../contract/index.js';
import { KEYS_FILE_SCHEMA } from './config/keys.js';
import { TIERS_FILE_SCHEMA } from './config/tiers.js';

const metaSchema = new Ajv2020({ strict: false });
const problemsOf = (schema: Schema) =>
  metaSchema.validateSchema(schema) ? [] : (metaSchema.errors ?? []).map((e) => e.message);

describe('every schema the validators compile is valid JSON Schema 2020-12', () => {
  it('the configuration files', () => {
    expect(problemsOf(KEYS_FILE_SCHEMA)).toEqual([]);
    expect(problemsOf(TIERS_FILE_SCHEMA)).toEqual([]);
  });

  it("the document's parameters, request bodies, response bodies and headers, every release", async () => {
    const all = await loadContract({ release: UNRELEASED });
    let checked = 0;
    for (const op of all.operations) {
      const schemas: [string, Schema][] = [
        ...op.parameters.map((p): [string, Schema] => [`parameter ${p.name}`, p.schema]),
        ...(op.requestBody ? [['request body', op.requestBody.schema] as [string, Schema]] : []),
      ];
      for (const [status, response] of op.responses) {
        if (response.jsonSchema) schemas.push([`${status} body`, response.jsonSchema]);
        for (const header of response.headers)
          schemas.push([`${status} header ${header.name}`, header.schema]);
      }
      for (const [where, schema] of schemas) {
        expect({ where: `${op.operationId} ${where}`, problems: problemsOf(schema) }).toEqual({
          where: `${op.operationId} ${where}`,
          problems: [],
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('sees an invalid schema', () => {
    expect(problemsOf({ type: 'strin' })).not.toEqual([]);
  });
});
