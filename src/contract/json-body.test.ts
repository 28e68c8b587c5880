/**
 * @module contract/json-body.test
 * A JSON body whose bytes are not UTF-8 is a `json` finding (the rest of the body still checked),
 * where decoding used to replace the bytes silently; a valid body gives none.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponse,
  createValidators,
  loadContract,
  parseJsonBody,
  type Operation,
  type Validators,
} from './index.js';

let validators: Validators;
let listPackages: Operation;

beforeAll(async () => {
  const contract = await loadContract({ release: 'unreleased' });
  validators = createValidators(contract);
  listPackages = contract.operation('listPackages');
});

const answer = (bytes: Uint8Array) =>
  checkResponse(validators, listPackages, {
    status: 200,
    method: 'GET',
    header: (name) => (name === 'content-type' ? 'application/json' : null),
    body: parseJsonBody(bytes),
  });

const page = '{"data":[],"pagination":{"offset":0,"limit":10,"total":0,"has_more":false}}';

describe('parseJsonBody', () => {
  it('invalid UTF-8 in a JSON body is a json finding; the body is still read', () => {
    const text = Buffer.from(page.replace('"data":[]', '"data":[],"x":"\u0000"'));
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf(0)] = 0xff; // a byte no UTF-8 text holds
    const body = parseJsonBody(bytes);
    expect(body).toMatchObject({ kind: 'json', value: { x: '\ufffd' } });
    expect(answer(bytes)).toContainEqual(
      expect.objectContaining({ rule: 'json', message: expect.stringMatching(/not valid UTF-8/) }),
    );
  });

  it('a valid body gives no json finding', () => {
    expect(answer(Buffer.from(page)).filter((f) => f.rule === 'json')).toEqual([]);
  });
});
