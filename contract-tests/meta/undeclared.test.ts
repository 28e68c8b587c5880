/**
 * @module meta/undeclared.test
 * The undeclared-field walker and the allowlist, on small schemas that exercise each keyword the
 * walker follows, and on the document's own two-shape product schema.
 */
import { describe, expect, it } from 'vitest';
import { loadContract, type Schema } from '../../src/contract/index.js';
import { allowlistOf } from '../support/allowlist.js';
import { pointerPattern, undeclaredFields } from '../support/undeclared.js';

const pointers = (body: unknown, schema: Schema) => undeclaredFields(body, schema).map((f) => f.pointer);

describe('undeclaredFields', () => {
  it('reports fields outside properties, with pointer and sample, through arrays', () => {
    const schema: Schema = { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } };
    expect(undeclaredFields({ data: [{ id: 'a' }, { id: 'b', extra: 1 }], top: true }, schema)).toEqual([
      { pointer: '/data/1/extra', sample: 1 },
      { pointer: '/top', sample: true },
    ]);
  });

  it('counts properties of every allOf member as declared', () => {
    const schema: Schema = { allOf: [{ type: 'object', properties: { a: {} } }, { type: 'object', properties: { b: {} } }] };
    expect(pointers({ a: 1, b: 2, c: 3 }, schema)).toEqual(['/c']);
  });

  it('follows the oneOf branch that fits the value, not the union of branches', () => {
    const schema: Schema = {
      oneOf: [
        { type: 'object', required: ['kind', 'x'], properties: { kind: { const: 'x' }, x: {} } },
        { type: 'object', required: ['kind', 'y'], properties: { kind: { const: 'y' }, y: {} } },
      ],
    };
    expect(pointers({ kind: 'x', x: 1, y: 2 }, schema)).toEqual(['/y']);
    expect(pointers({ kind: 'y', y: 2 }, schema)).toEqual([]);
  });

  it('treats anyOf items (entry or nested array of entries) alike', () => {
    const entry: Schema = { type: 'object', properties: { level: {}, title: {} } };
    const schema: Schema = { type: 'array', items: { anyOf: [entry, { type: 'array', items: entry }] } };
    expect(pointers([{ level: 1, title: 't' }, [{ level: 2, title: 'u', colour: 'red' }]], schema)).toEqual(['/1/0/colour']);
  });

  it('walks into additionalProperties schemas and accepts free-form objects', () => {
    expect(pointers({ m: { k: { v: 1, w: 2 } } }, { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } } } })).toEqual(['/m/k/w']);
    expect(pointers({ received: { anything: 1 } }, { type: 'object', properties: { received: {} } })).toEqual([]);
  });

  it('picks the right by-ID product shape from the document', async () => {
    const contract = await loadContract({ release: 'unreleased' });
    const schema = contract.operation('getProduct').responses.get('200')!.jsonSchema!;
    const common = { productId: 'p', wwwUpdateDate: 'd', uuid: 'u', title: 't', url: 'u', category: [], description: '', features: '', applications: '', images: [], orderableProducts: [], relatedBoardsKits: [], softwareTools: [], featuredDocuments: [], relatedDocuments: [], relatedDocumentsSecondary: [] };
    expect(pointers({ ...common, applicationBlockDiagrams: [], surprise: 1 }, schema)).toEqual(['/surprise']);
    expect(pointers({ ...common, additionalDetails: null, relatedProducts: [] }, schema)).toEqual([]);
  });

  it('groups pointers into patterns', () => {
    expect(pointerPattern('/data/12/items/3/x')).toBe('/data/*/items/*/x');
  });
});

describe('allowlist', () => {
  it('matches * as one segment and ** as any number', () => {
    const allow = allowlistOf(['/data/*/newField', '/**/legacy']);
    expect(allow('/data/3/newField')).toBe(true);
    expect(allow('/data/3/x/newField')).toBe(false);
    expect(allow('/data/3/deep/legacy')).toBe(true);
    expect(allow('/other')).toBe(false);
  });
});
