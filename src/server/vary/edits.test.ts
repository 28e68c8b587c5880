/**
 * @module vary/edits.test
 * The edits on a schema that uses every rule the walk reads, over many seeds: every result
 * validates against the schema (with the project's ajv setup), rules the document does not use
 * today (`minItems`, `maxItems`, `maxLength`, `uniqueItems`, `additionalProperties: false`, `not`,
 * a `oneOf` branch's `required`, bounds) are kept, and each kind of edit is seen.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema, type Schema } from '../../contract/index.js';
import { seededRandom } from '../../dataset/mulberry32.js';
import { varyBody, UNDECLARED_FIELD, type EditKind } from './edits.js';

const SCHEMA: Schema = {
  type: 'object',
  required: ['id', 'tags'],
  properties: {
    id: { type: 'string' },
    code: { type: 'string', enum: ['A', 'B'] },
    day: { type: 'string', format: 'date' },
    sku: { type: 'string', pattern: '^[A-Z]{3}$' },
    name: { type: 'string', minLength: 2, maxLength: 6 },
    note: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    picks: { type: 'array', minItems: 2, maxItems: 4, items: { type: 'integer' } },
    unique: { type: 'array', uniqueItems: true, items: { type: 'integer' } },
    link: { type: 'string' },
    lone: { type: 'object', properties: { level: { type: 'integer', minimum: 1, maximum: 9 } } },
    closed: {
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string' } },
    },
    guarded: {
      type: 'object',
      not: { required: [UNDECLARED_FIELD] },
      properties: { b: { type: 'string' } },
    },
    either: {
      type: 'object',
      properties: { href: { type: 'string' }, url: { type: 'string' }, title: { type: 'string' } },
      oneOf: [{ required: ['href'] }, { required: ['url'] }],
    },
    category: { type: 'string' },
    count: { type: ['integer', 'string'] },
    doc: {
      type: 'object',
      properties: {
        documentTitle: { type: 'string' },
        title: { type: 'string', 'x-alternative-of': 'documentTitle' },
        url: { type: 'string' },
        href: { type: 'string', 'x-alternative-of': 'url' },
      },
    },
  },
};

function body(): Record<string, unknown> {
  return {
    id: 'X1',
    code: 'A',
    day: '2026-01-02',
    sku: 'ABC',
    name: 'abcd',
    note: 'n',
    tags: ['t1', 't2'],
    picks: [1, 2, 3],
    unique: [1, 2],
    link: '/products/X1',
    lone: { level: 5 },
    closed: { a: 'x' },
    guarded: { b: 'y' },
    either: { href: 'h', title: 't' },
    category: 'kept',
    count: 12,
    doc: { documentTitle: 'Data sheet', url: 'https://example.com/a.pdf' },
  };
}

const KEPT = { names: new Set(['category']), criteria: new Set<string>() };
const validate = compileSchema(SCHEMA);

describe('varyBody on every rule it reads', () => {
  const runs = Array.from({ length: 300 }, (_, seed) => {
    const value = body();
    const edits = varyBody(SCHEMA, value, { kept: KEPT, random: seededRandom(seed) });
    return { seed, value, edits };
  });

  it('gives bodies that validate, for every seed', () => {
    for (const { seed, value } of runs) expect(validate(value), `seed ${seed}`).toEqual([]);
  });

  it('keeps required and kept fields; an enum, format, pattern or link value is left out at most, never rewritten', () => {
    const original = body();
    for (const { value } of runs) {
      for (const name of ['id', 'tags', 'category']) expect(value[name]).toEqual(original[name]);
      for (const name of ['code', 'day', 'sku', 'link'])
        if (name in value) expect(value[name]).toEqual(original[name]);
    }
  });

  it('keeps a oneOf branch required field, adds nothing to a closed object or where a not forbids it', () => {
    for (const { value } of runs) {
      const either = value.either as Record<string, unknown> | undefined;
      if (either) expect(either.href).toBe('h');
      if (value.closed) expect(Object.keys(value.closed)).not.toContain(UNDECLARED_FIELD);
      if (value.guarded) expect(Object.keys(value.guarded)).not.toContain(UNDECLARED_FIELD);
      if (Array.isArray(value.unique)) expect(value.unique.length).toBeLessThanOrEqual(2);
    }
  });

  it('makes every kind of edit somewhere', () => {
    const kinds = new Set<EditKind>(runs.flatMap((r) => r.edits.map((e) => e.kind)));
    expect([...kinds].sort()).toEqual(
      [
        'absent',
        'empty',
        'long',
        'max-length',
        'maximum',
        'min-items',
        'min-length',
        'minimum',
        'non-ascii',
        'null',
        'form',
        'undeclared',
      ].sort(),
    );
  });

  it('spells a conflict the other way: the alternative name, a figure as text', () => {
    const forms = runs.flatMap((r) =>
      r.edits.filter((e) => e.kind === 'form').map((e) => e.pointer),
    );
    expect(forms).toContain('/doc/title');
    expect(forms).toContain('/count');
    // A link keeps its name: never renamed to the field a client would follow.
    expect(forms).not.toContain('/doc/href');
    for (const { value, edits } of runs) {
      if (edits.some((e) => e.pointer === '/doc/title'))
        expect(value.doc).toMatchObject({ title: 'Data sheet' });
      if (edits.some((e) => e.pointer === '/count' && e.kind === 'form'))
        expect(value.count).toBe('12');
    }
  });

  it('is the same for the same seed', () => {
    const again = body();
    const edits = varyBody(SCHEMA, again, { kept: KEPT, random: seededRandom(7) });
    expect(again).toEqual(runs[7].value);
    expect(edits).toEqual(runs[7].edits);
  });
});
