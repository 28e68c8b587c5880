/**
 * @module evidence/profile.test
 * The profile format and the fold of one response into it: counts per location, value sets up to
 * their bound, list facts, the same bytes whatever order responses came in, merge equal to
 * observing everything, caps kept, keys and personal values never kept, bad files refused by name.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleOf, formatOf, observe, parseExample, type Observation } from './observe.js';
import {
  DEFAULT_BOUNDS,
  emptyProfile,
  merge,
  readProfile,
  serializeProfile,
  type Profile,
} from './profile.js';

function page(
  data: Record<string, unknown>[],
  query: [string, string][] = [],
  pagination: Record<string, unknown> = { offset: 0, limit: 10, total: 100, has_more: true },
): Observation {
  return {
    operationId: 'listPackages',
    method: 'GET',
    path: '/packages',
    query,
    status: 200,
    headers: new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
    }),
    body: { data, pagination },
    undeclared: [],
  };
}

const records = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    code: `P${String(from + i).padStart(3, '0')}`,
    updated: '2026-01-02T03:04:05Z',
    kind: i % 2 ? 'soic' : 'qfn',
    pins: 8 + i,
    note: i === 0 ? null : 'x',
  }));

function fold(observations: readonly Observation[], options = {}): Profile {
  const profile = emptyProfile();
  for (const o of observations) observe(profile, o, options);
  return profile;
}

describe('observe', () => {
  it('counts per location: records carrying it, types with null, formats, values, ranges, lengths', () => {
    const p = fold([page(records(10))]);
    const op = p.operations.listPackages;
    const loc = op.bodies['200'].locations;
    expect(op.statuses).toEqual({ '200': 1 });
    expect(op.contentTypes).toEqual({ 'application/json': 1 });
    expect(op.headerValues).toEqual({ 'x-ratelimit-limit': { min: 100, max: 100 } });
    expect(op.headers['x-ratelimit-remaining']).toBe(1);
    expect(loc['/data/*'].count).toBe(10);
    expect(loc['/data/*/updated']).toMatchObject({ count: 10, formats: { 'date-time': 10 } });
    expect(loc['/data/*/kind'].values).toEqual({ qfn: 5, soic: 5 });
    expect(loc['/data/*/pins'].numbers).toEqual({ min: 8, max: 17 });
    expect(loc['/data/*/note'].types).toEqual({ null: 1, string: 9 });
    expect(loc['/data'].lengths).toEqual({ min: 10, max: 10 });
  });

  it('a value set past its bound is open (no values kept), and so is one with a long string', () => {
    const p = fold([page(records(30))]);
    const loc = p.operations.listPackages.bodies['200'].locations;
    expect(loc['/data/*/code']).toMatchObject({ open: true });
    expect(loc['/data/*/code'].values).toBeUndefined();
    const long = fold([page([{ t: 'x'.repeat(DEFAULT_BOUNDS.valueChars + 1) }])]);
    expect(long.operations.listPackages.bodies['200'].locations['/data/*/t'].open).toBe(true);
  });

  it('never keeps a key, nor a personal-looking value of an undeclared field', () => {
    const key = 'k3y-Secret-123';
    const obs = page(
      [{ echo: `you sent ${key}`, mail: 'a@b.example', declaredMail: 'c@d.example' }],
      [['q', key]],
    );
    obs.undeclared = ['/data/*/echo', '/data/*/mail'];
    const text = serializeProfile(fold([obs], { secrets: [key] }));
    expect(text).not.toContain(key);
    expect(text).not.toContain('a@b.example');
    expect(text).toContain('c@d.example');
    // Without a document every field is undeclared: nothing personal-looking is kept.
    const cautious = page([{ firstName: 'Jane' }]);
    delete cautious.undeclared;
    expect(serializeProfile(fold([cautious]))).not.toContain('Jane');
  });

  it('list facts: default page size, largest limit honoured, what offset counts, the default order', () => {
    const p = fold([
      page(records(10)),
      page(records(50), [['limit', '50']]),
      page(records(100), [['limit', '100']], {
        offset: 0,
        limit: 100,
        total: 100,
        has_more: false,
      }),
      // offset=9 with limit 10: pages would skip 90 (10 left, no more); items would skip 9 (more left).
      page(
        records(10, 90),
        [
          ['limit', '10'],
          ['offset', '9'],
        ],
        { offset: 90, limit: 10, total: 100, has_more: false },
      ),
    ]);
    const list = p.operations.listPackages.list!;
    expect(list.defaultSizes).toEqual({ '10': 1 });
    expect(list.defaultEchoedLimit).toEqual({ '10': 1 });
    expect(list.largestLimitAsked).toBe(100);
    expect(list.largestLimitHonoured).toBe(100);
    expect(list.offset).toEqual({ informative: 1, page: 1, item: 0 });
    // Only the page asked without `order`... and every page here was: 4 pages, code ascending on each.
    expect(list.defaultOrder.pages).toBe(4);
    expect(list.defaultOrder.strict['code asc']).toBe(4);
    expect(list.defaultOrder.fits['code desc']).toBeUndefined();
    const ordered = fold([page(records(10).reverse(), [['order', 'code']])]);
    expect(ordered.operations.listPackages.list!.defaultOrder.pages).toBe(0);
  });

  it("the target's origin is kept as {origin}, so a run's profile does not depend on its port", () => {
    const at = (port: number) =>
      serializeProfile(
        fold([page([{ href: `http://127.0.0.1:${port}/web-data/v1/packages/A` }])], {
          origins: [`http://127.0.0.1:${port}`],
        }),
      );
    expect(at(4010)).toBe(at(5020));
    expect(at(4010)).toContain('"{origin}/web-data/v1/packages/A": 1');
    expect(at(4010)).toContain('"uri": 1');
  });

  it('string formats', () => {
    expect(formatOf('2026-01-02')).toBe('date');
    expect(formatOf('2026-01-02T03:04:05.123+01:00')).toBe('date-time');
    expect(formatOf('https://example.com/a')).toBe('uri');
    expect(formatOf('123e4567-e89b-12d3-a456-426614174000')).toBe('uuid');
    expect(formatOf('LM358')).toBe('other');
  });

  it('error bodies: their shape per status', () => {
    const p = fold([
      {
        operationId: 'getPackage',
        method: 'GET',
        path: '/packages/X',
        query: [],
        status: 404,
        headers: { 'Content-Type': 'application/json' },
        body: { error: 'not found: X', retry_after: 59 },
      },
    ]);
    expect(p.operations.getPackage.errorShapes).toEqual({ '404': { 'error,retry_after': 1 } });
    // Its shape, not its values: they say what was asked and when.
    expect(p.operations.getPackage.bodies['404'].locations['/retry_after']).toEqual({
      count: 1,
      types: { integer: 1 },
    });
    expect(p.operations.getPackage.bodies['404'].locations['/error'].values).toBeUndefined();
    expect(p.operations.getPackage.examples).toEqual({ '404': 'GET /packages/X' });
  });
});

describe('profile', () => {
  const observations = [
    page(records(10)),
    page(records(30), [['limit', '30']]),
    page(records(5, 7), [['offset', '3']]),
    page([{ code: 'A', extra: { deep: [1, 2.5, 'x'] } }]),
  ];

  it('is the same bytes whatever order the responses came in, and merge equals observing all', () => {
    const forward = serializeProfile(fold(observations));
    const backward = serializeProfile(fold([...observations].reverse()));
    expect(backward).toBe(forward);
    const a = fold(observations.slice(0, 2));
    const b = fold(observations.slice(2));
    const before = serializeProfile(a);
    expect(serializeProfile(merge(a, b))).toBe(forward);
    expect(serializeProfile(merge(b, a))).toBe(forward);
    expect(serializeProfile(a)).toBe(before);
  });

  it('writes keys in code-unit order', () => {
    const text = serializeProfile(fold(observations));
    expect(text.indexOf('"bounds"')).toBeLessThan(text.indexOf('"count"'));
    // "1" before "10" (code units), where a plain object would list integer-like keys by value anyway.
    expect(text).toMatch(/"defaultSizes": \{\n\s+"1": 1,\n\s+"10": 1\n/);
    expect(text).toMatch(/"statuses": \{\n\s+"200": 4\n/);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('keeps the smallest pointers within the location bound, in any order', () => {
    const bounds = { ...DEFAULT_BOUNDS, locations: 3 };
    const obs = [page([{ b: 1 }]), page([{ a: 1, c: 2 }])];
    const one = emptyProfile(bounds);
    const two = emptyProfile(bounds);
    for (const o of obs) observe(one, o);
    for (const o of [...obs].reverse()) observe(two, o);
    expect(serializeProfile(one)).toBe(serializeProfile(two));
    expect(Object.keys(one.operations.listPackages.bodies['200'].locations).length).toBe(3);
    expect(() => merge(one, emptyProfile())).toThrow(/different bounds/);
  });

  it('reads back what it wrote; refuses a file that is not a profile, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    const good = join(dir, 'profile.json');
    const profile = fold(observations);
    writeFileSync(good, serializeProfile(profile));
    expect(readProfile(good)).toEqual(profile);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'web-data-profile/1', count: -1 }));
    expect(() => readProfile(bad)).toThrow(new RegExp(`${bad}: not a profile`));
    writeFileSync(bad, '{');
    expect(() => readProfile(bad)).toThrow(/cannot read a profile/);
  });
});

describe('example requests', () => {
  const post = (requestBody: unknown): Observation => ({
    operationId: 'searchProducts',
    method: 'post',
    path: '/products/search',
    query: [],
    requestBody,
    status: 200,
    headers: {},
  });
  const key = 'k3y-for-examples';

  it('keeps a POST body that fits, so a repro line can send it, and reads it back', () => {
    const example = exampleOf(post({ limit: 5, filters: [{ name: 'a b' }] }), [key]);
    expect(example).toBe('POST /products/search {"limit":5,"filters":[{"name":"a b"}]}');
    expect(parseExample(example!)).toEqual({
      method: 'POST',
      path: '/products/search',
      body: '{"limit":5,"filters":[{"name":"a b"}]}',
    });
    expect(parseExample('GET /products?limit=2')).toEqual({
      method: 'GET',
      path: '/products?limit=2',
    });
  });

  it('keeps no example of a POST whose body is long, holds the key or looks personal', () => {
    for (const body of [
      { numbers: Array.from({ length: 200 }, (_, i) => `PART-${i}`) },
      { echo: key },
      { echo: Buffer.from(key).toString('base64') },
      { contact: 'someone@mail.example' },
    ])
      expect(exampleOf(post(body), [key])).toBeUndefined();
  });
});
