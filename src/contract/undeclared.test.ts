/**
 * @module contract/undeclared.test
 * The undeclared-field walker on small schemas that exercise each keyword it follows, and on the
 * document's own schemas (nested objects, arrays, allOf, the fitting oneOf branch of the two
 * product shapes, anyOf items, free-form values); the pointer patterns and the allowlist.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Schema } from './index.js';
import { pointerPattern } from './pointer.js';
import { MAX_NAME_LENGTH } from './names.js';
import {
  allowlistOf,
  collectUndeclared,
  findAbsent,
  findForms,
  findUndeclared,
  MAX_UNDECLARED_PATTERNS,
} from './undeclared.js';

let schemas: Record<string, Schema>;

/** One undeclared field met once: its pointer, pattern, count 1 and sample. */
const field = (pointer: string, sample: unknown) => ({
  pointer,
  pattern: pointerPattern(pointer),
  count: 1,
  sample,
});

beforeAll(async () => {
  const { document } = await loadContract();
  schemas = document.components!.schemas as Record<string, Schema>;
});

const pointers = (body: unknown, schema: Schema) =>
  findUndeclared(schema, body).map((f) => f.pointer);

describe('findUndeclared on small schemas', () => {
  it('reports fields outside properties, with pointer and sample, through arrays', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        data: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
      },
    };
    expect(
      findUndeclared(schema, { data: [{ id: 'a' }, { id: 'b', extra: 1 }], top: true }),
    ).toEqual([field('/data/1/extra', 1), field('/top', true)]);
  });

  it('counts properties of every allOf member as declared', () => {
    const schema: Schema = {
      allOf: [
        { type: 'object', properties: { a: {} } },
        { type: 'object', properties: { b: {} } },
      ],
    };
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

  it('uses every branch when none fits, so a misfit does not invent drift', () => {
    const schema: Schema = {
      oneOf: [
        { type: 'object', required: ['x'], properties: { x: { type: 'string' } } },
        { type: 'object', required: ['y'], properties: { y: { type: 'string' } } },
      ],
    };
    // x and y have the wrong type, so neither branch fits: both are declared somewhere, z nowhere.
    expect(pointers({ x: 1, y: 2, z: 0 }, schema)).toEqual(['/z']);
    // One branch fits: only its fields count.
    expect(pointers({ x: 1, y: 'b', z: 0 }, schema)).toEqual(['/x', '/z']);
  });

  it('walks a property declared by two fitting branches against both declarations', () => {
    const schema: Schema = {
      anyOf: [
        { type: 'object', properties: { m: { type: 'object', properties: { a: {} } } } },
        { type: 'object', properties: { m: { type: 'object', properties: { b: {} } } } },
      ],
    };
    expect(pointers({ m: { a: 1, b: 2, c: 3 } }, schema)).toEqual(['/m/c']);
  });

  it('treats anyOf items (entry or nested array of entries) alike', () => {
    const entry: Schema = { type: 'object', properties: { level: {}, title: {} } };
    const schema: Schema = {
      type: 'array',
      items: { anyOf: [entry, { type: 'array', items: entry }] },
    };
    expect(
      pointers([{ level: 1, title: 't' }, [{ level: 2, title: 'u', colour: 'red' }]], schema),
    ).toEqual(['/1/0/colour']);
  });

  it('walks into additionalProperties schemas and accepts free-form objects', () => {
    expect(
      pointers(
        { m: { k: { v: 1, w: 2 } } },
        {
          type: 'object',
          properties: {
            m: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } },
          },
        },
      ),
    ).toEqual(['/m/k/w']);
    expect(
      pointers({ received: { anything: 1 } }, { type: 'object', properties: { received: {} } }),
    ).toEqual([]);
    expect(
      pointers(
        { a: 1, b: 2 },
        { type: 'object', properties: { a: {} }, additionalProperties: true },
      ),
    ).toEqual([]);
  });

  it('treats an explicitly empty property list as declaring no fields', () => {
    expect(pointers({ a: 1 }, { type: 'object', properties: {} })).toEqual(['/a']);
  });

  it('prefixes pointers with `at`', () => {
    expect(
      findUndeclared({ type: 'object', properties: {} }, { a: 1 }, '/root').map((f) => f.pointer),
    ).toEqual(['/root/a']);
  });
});

describe('findUndeclared on the document', () => {
  it('finds nothing in a body made of declared fields', () => {
    const body = {
      data: [{ productId: 'P1', title: 'T', category: [{ level: 1, title: 'Amps' }] }],
      pagination: { offset: 0, limit: 10, total: 1, has_more: false },
    };
    expect(findUndeclared(schemas.ProductList, body)).toEqual([]);
  });

  it('reports undeclared fields with pointer and sample, at any depth', () => {
    const body = {
      data: [
        {
          productId: 'P1',
          newField: 'x',
          orderableProducts: [{ orderableId: 'O#1', href: '/h', stock: 5 }],
        },
      ],
      pagination: { offset: 0, limit: 10, total: 1, has_more: false, cursor: 'abc' },
      meta: { took: 3 },
    };
    expect(findUndeclared(schemas.ProductList, body)).toEqual([
      field('/data/0/newField', 'x'),
      field('/data/0/orderableProducts/0/stock', 5),
      field('/pagination/cursor', 'abc'),
      field('/meta', { took: 3 }),
    ]);
  });

  it('follows the oneOf branch the body fits (the two by-ID product shapes)', () => {
    const v100 = {
      productId: 'P1',
      additionalDetails: null,
      relatedProducts: [{ productId: 'P2', title: 't', href: '/p', rank: 1 }],
    };
    expect(findUndeclared(schemas.ProductById, v100)).toEqual([
      field('/relatedProducts/0/rank', 1),
    ]);
    const v120 = {
      productId: 'P1',
      applicationBlockDiagrams: [
        { title: 't', description: 'd', imageUrl: 'i', url: 'u', size: 'L' },
      ],
    };
    expect(findUndeclared(schemas.ProductById, v120)).toEqual([
      field('/applicationBlockDiagrams/0/size', 'L'),
    ]);
  });

  it('picks the right by-ID product shape for complete records', async () => {
    const contract = await loadContract({ release: 'unreleased' });
    const schema = contract.operation('getProduct').responses.get('200')!.jsonSchema!;
    const common = {
      productId: 'p',
      wwwUpdateDate: 'd',
      uuid: 'u',
      title: 't',
      url: 'u',
      category: [],
      description: '',
      features: '',
      applications: '',
      images: [],
      orderableProducts: [],
      relatedBoardsKits: [],
      softwareTools: [],
      featuredDocuments: [],
      relatedDocuments: [],
      relatedDocumentsSecondary: [],
    };
    expect(pointers({ ...common, applicationBlockDiagrams: [], surprise: 1 }, schema)).toEqual([
      '/surprise',
    ]);
    expect(pointers({ ...common, additionalDetails: null, relatedProducts: [] }, schema)).toEqual(
      [],
    );
  });

  it('walks anyOf items in both category forms', () => {
    const body = {
      category: [{ level: 1, title: 'A', slug: 'a' }, [{ level: 2, title: 'B', id: 7 }]],
    };
    expect(findUndeclared(schemas.Product, body)).toEqual([
      field('/category/0/slug', 'a'),
      field('/category/1/0/id', 7),
    ]);
  });

  it('does not report inside free-form values, and escapes pointer characters', () => {
    // An attribute value may be any object (the reference's search answer and examples send objects).
    const attribute = {
      productPartAttributeId: 'vin-max',
      attributeName: 'Vin Max',
      href: '/h',
      attributeValues: [16, { value: 16, unit: 'V', any: { thing: 1 } }],
      'a/b~c': 1,
    };
    expect(findUndeclared(schemas.PartParametricAttribute, attribute)).toEqual([
      field('/a~1b~0c', 1),
    ]);
  });

  it('the 400 body is the plain {error}: the former code and details members are undeclared', () => {
    const error = { error: 'bad', code: 400, details: [{ in: 'query', name: 'limit' }] };
    expect(findUndeclared(schemas.BadRequestError, error)).toEqual([
      field('/code', 400),
      field('/details', expect.anything()),
    ]);
  });

  it('shows a value nested beyond the stack without throwing', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    const found = findUndeclared(schemas.NotFoundError, { error: 'x', deep });
    expect(found.map((f) => f.pointer)).toEqual(['/deep']);
    // Node 20-24 run out of stack in JSON.stringify at this depth and show the placeholder; Node 26
    // stringifies it, and the sample is then the usual truncated text.
    expect(String(found[0].sample)).toMatch(/^(\(too deeply nested to show\)|\[{50,}.*…)$/s);
  });

  it('truncates long samples', () => {
    const [found] = findUndeclared(schemas.NotFoundError, { error: 'x', blob: 'y'.repeat(500) });
    expect(String(found.sample).length).toBeLessThan(200);
  });
});

describe('bounds: a vendor adding fields to every record', () => {
  const page = (records: number, fields: number) => ({
    data: Array.from({ length: records }, (_, r) => {
      const record: Record<string, unknown> = { productId: `P${r}` };
      for (let f = 0; f < fields; f++) record[`vendor${f}`] = f;
      return record;
    }),
    pagination: { offset: 0, limit: records, total: records, has_more: false },
  });

  it('one entry per pointer pattern with its count, not one per record', () => {
    const { fields, omitted } = collectUndeclared(schemas.ProductList, page(50, 3));
    expect(omitted).toBe(0);
    expect(fields).toEqual([
      { pointer: '/data/0/vendor0', pattern: '/data/*/vendor0', count: 50, sample: 0 },
      { pointer: '/data/0/vendor1', pattern: '/data/*/vendor1', count: 50, sample: 1 },
      { pointer: '/data/0/vendor2', pattern: '/data/*/vendor2', count: 50, sample: 2 },
    ]);
  });

  it(`at most ${MAX_UNDECLARED_PATTERNS} patterns per body, the other fields counted`, () => {
    const { fields, omitted } = collectUndeclared(schemas.ProductList, page(10, 1000));
    expect(fields).toHaveLength(MAX_UNDECLARED_PATTERNS);
    expect(omitted).toBe(10 * (1000 - MAX_UNDECLARED_PATTERNS));
  });

  it('a 100,000-character name is cut in the pointer', () => {
    const name = 'n'.repeat(100_000);
    const [found] = findUndeclared(schemas.NotFoundError, { error: 'x', [name]: 1 });
    expect(found.pointer.length).toBeLessThan(MAX_NAME_LENGTH + 30);
    expect(found.pointer).toMatch(/…\(100000 chars\)$/);
    expect(collectUndeclared(schemas.NotFoundError, { error: 'x', [name]: 1 }).cut).toBe(true);
  });
});

describe('findAbsent: declared fields left out where presence is not stated', () => {
  it("names absent optional fields, not required ones, alternative spellings, sometimes-fields or another form's fields", () => {
    const board = {
      boardKitId: 'B1',
      title: 'Board',
      softwareTools: [{ name: 'Tool', url: null }],
    };
    const absent = findAbsent(schemas.BoardKit, board);
    expect(absent).toContain('/url');
    expect(absent).toContain('/category');
    expect(absent).not.toContain('/boardKitId');
    expect(absent).not.toContain('/title');
    // `softwareToolName`/`href` are the reference schema's spelling of `name`/`url`: not expected beside them.
    expect(absent.filter((p) => p.startsWith('/softwareTools/'))).toEqual([]);
  });

  it('expects on a CAD model only the fields of the form it has', () => {
    expect(
      findAbsent(schemas.CadModel, {
        cadSoftware: 'Multiple',
        url: 'https://x',
        providedBy: 'SnapEDA',
      }),
    ).toEqual([]);
  });
});

describe('findForms: the side of a source/reference conflict the mock does not serve', () => {
  it('names grouped categories, board category names, {title} tool categories, a one-string subType and an alternative spelling', () => {
    expect(
      findForms(schemas.Product, { productId: 'P', category: [[{ level: 1, title: 'A' }]] }),
    ).toEqual([
      { pointer: '/category/0', form: "entries grouped in an inner array (the source's sample)" },
    ]);
    expect(
      findForms(schemas.BoardKit, {
        boardKitId: 'B',
        category: ['Power'],
        softwareTools: [{ softwareToolName: 'T', href: '/t' }],
      }).map((f) => f.pointer),
    ).toEqual(['/category/0', '/softwareTools/0/softwareToolName', '/softwareTools/0/href']);
    expect(
      findForms(schemas.SoftwareTool, {
        softwareToolName: 'T',
        parentSoftwareCategory: [{ title: 'X' }],
      }),
    ).toEqual([{ pointer: '/parentSoftwareCategory/0', form: '{title} items (the source)' }]);
    expect(findForms(schemas.Document, { agileId: 'A', subType: 'Driver Package' })).toEqual([
      { pointer: '/subType', form: "one string (the reference's example)" },
    ]);
  });

  it('says nothing about the forms the mock serves', () => {
    expect(
      findForms(schemas.BoardKit, {
        boardKitId: 'B',
        category: [{ level: 1, title: 'Power' }],
        softwareTools: [{ name: 'T', url: null }],
      }),
    ).toEqual([]);
    expect(
      findForms(schemas.Document, {
        agileId: 'A',
        subType: ['Driver Package'],
        category: [{ level: 1, title: 'A' }],
      }),
    ).toEqual([]);
  });
});

describe('pointer patterns', () => {
  it('groups pointers into patterns', () => {
    expect(pointerPattern('/data/12/items/3/x')).toBe('/data/*/items/*/x');
    expect(pointerPattern('/data/12x/3')).toBe('/data/12x/*');
  });

  it('allowlist: * matches one segment and ** any number', () => {
    const allow = allowlistOf(['/data/*/newField', '/**/legacy', '/a.b']);
    expect(allow('/data/3/newField')).toBe(true);
    expect(allow('/data/3/x/newField')).toBe(false);
    expect(allow('/data/3/deep/legacy')).toBe(true);
    expect(allow('/other')).toBe(false);
    // Pattern characters other than * are literal.
    expect(allow('/axb')).toBe(false);
  });
});
