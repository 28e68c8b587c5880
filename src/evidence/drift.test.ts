/**
 * @module evidence/drift.test
 * The comparison of two profiles on its own: what fails, what warns, what is no news, and the
 * thresholds that keep one sampled page from standing for every record.
 */
import { describe, expect, it } from 'vitest';
import type { DeclaredLookup, DeclaredPlace } from './declared.js';
import { compareProfiles, DEFAULT_THRESHOLDS } from './drift.js';
import { observe, type Observation } from './observe.js';
import { emptyProfile, type Profile } from './profile.js';

type Row = Record<string, unknown>;

function page(data: Row[], query: [string, string][] = [], status = 200): Observation {
  return {
    operationId: 'listThings',
    method: 'GET',
    path: '/things',
    query,
    status,
    headers: { 'content-type': 'application/json' },
    body:
      status === 200
        ? { data, pagination: { offset: 0, limit: 10, total: 100, has_more: true } }
        : { error: 'x' },
    undeclared: [],
  };
}

const rows = (n: number, change: (r: Row, i: number) => void = () => {}): Row[] =>
  Array.from({ length: n }, (_, i) => {
    const r: Row = {
      id: `T${String(99 - i).padStart(3, '0')}`,
      kind: ['a', 'b', 'c'][i % 3],
      updated: `2026-01-${String(20 - i).padStart(2, '0')}T00:00:00Z`,
      note: 'n',
    };
    change(r, i);
    return r;
  });

function profile(...observations: Observation[]): Profile {
  const p = emptyProfile();
  for (const o of observations) observe(p, o);
  return p;
}

const kinds = (before: Profile, after: Profile, t = DEFAULT_THRESHOLDS) =>
  compareProfiles(before, after, t).map((d) => `${d.severity} ${d.kind} ${d.pointer}`);

describe('compareProfiles', () => {
  const then = profile(page(rows(10)), page(rows(10)));

  it('the same observations: no drift', () => {
    expect(kinds(then, profile(page(rows(10)), page(rows(10))))).toEqual([]);
  });

  it('a field every record carried, carried by none: a failure with then and now', () => {
    const now = profile(page(rows(10, (r) => delete r.note)), page(rows(10, (r) => delete r.note)));
    const [d] = compareProfiles(then, now);
    expect(d).toMatchObject({
      severity: 'failure',
      kind: 'field-removed',
      pointer: '/data/*/note',
      before: 'carried by 20 of 20 (100%)',
      after: 'carried by 0 of 20 (0%)',
      example: 'GET /things',
    });
  });

  it('a sampled page is not every record: too few records then or now says nothing', () => {
    const limit: [string, string][] = [['limit', '3']];
    const few = profile(page(rows(3), limit));
    const fewWithout = profile(
      page(
        rows(3, (r) => delete r.note),
        limit,
      ),
    );
    expect(kinds(few, fewWithout)).toEqual([]);
    expect(kinds(then, fewWithout)).toEqual([]);
    // The threshold is an option: with 3 records enough, the drop counts.
    expect(kinds(few, fewWithout, { ...DEFAULT_THRESHOLDS, minRecords: 3 })).toEqual([
      'failure field-removed /data/*/note',
    ]);
  });

  it('a field only some records carried is not "every record"', () => {
    const some = profile(page(rows(20, (r, i) => i % 2 && delete r.note)));
    expect(kinds(some, profile(page(rows(20, (r) => delete r.note))))).toEqual([]);
  });

  it('type, nullability and format changes fail; integer where number was is no news', () => {
    const now = profile(
      page(rows(10, (r, i) => ((r.note = i ? 'n' : null), (r.updated = '2026-01-01'), (r.id = 7)))),
    );
    expect(kinds(then, now)).toEqual(
      expect.arrayContaining([
        'failure format /data/*/updated',
        'failure type /data/*/id',
        'failure nullability /data/*/note',
      ]),
    );
    const numbers = profile(page(rows(10, (r, i) => (r.size = i + 0.5))));
    const integers = profile(page(rows(10, (r, i) => (r.size = i))));
    expect(kinds(numbers, integers)).toEqual([]);
  });

  it('new fields, new enum values and new statuses warn', () => {
    // Three values in 40 strings: each seen enumRepeat (10) times or more, so enum-like.
    const often = profile(page(rows(10)), page(rows(10)), page(rows(10)), page(rows(10)));
    const now = profile(
      page(rows(10, (r, i) => ((r.extra = 1), i === 0 && (r.kind = 'z')))),
      page([], [], 404),
    );
    expect(kinds(often, now)).toEqual([
      'warning new-field /data/*/extra',
      'warning enum-value /data/*/kind',
      'warning status status',
    ]);
  });

  it('default page size and default order changes fail', () => {
    const bigger = profile(page(rows(25)));
    expect(kinds(then, bigger)).toContain('failure default-limit query:limit');
    const reversed = profile(page(rows(10).reverse()), page(rows(10).reverse()));
    const [order] = compareProfiles(then, reversed);
    expect(order).toMatchObject({ kind: 'default-order', severity: 'failure' });
    expect(order.before).toMatch(/id desc/);
    expect(order.after).toMatch(/id asc/);
    // An order asked for is no evidence of the default.
    expect(kinds(then, profile(page(rows(10).reverse(), [['order', 'id']])))).toEqual([]);
  });
});

/** A document that declares `types` at every pointer named, and is silent elsewhere. */
function declaring(places: Record<string, Partial<DeclaredPlace>>): DeclaredLookup {
  return (_op, _status, pointer) =>
    Object.hasOwn(places, pointer)
      ? { enumerated: false, formats: new Set(), ...places[pointer] }
      : undefined;
}

describe('compareProfiles does not cry wolf (data changes every night)', () => {
  const then = profile(page(rows(10)), page(rows(10)));
  const nullableNote = declaring({ '/data/*/note': { types: new Set(['string', 'null']) } });

  it('a value moving within the types the document declares is no drift; outside them it fails', () => {
    const nulled = profile(page(rows(10, (r, i) => (r.note = i % 2 ? null : 'n'))));
    expect(compareProfiles(then, nulled, DEFAULT_THRESHOLDS, nullableNote)).toEqual([]);
    // Seen null then, set now: no news either way.
    expect(compareProfiles(nulled, then, DEFAULT_THRESHOLDS, nullableNote)).toEqual([]);
    // Declared a string alone: null is a change of behaviour the document does not allow.
    const stringNote = declaring({ '/data/*/note': { types: new Set(['string']) } });
    expect(
      compareProfiles(then, nulled, DEFAULT_THRESHOLDS, stringNote).map((d) => d.severity),
    ).toEqual(['failure']);
  });

  it('where the document is silent, a type seen fewer than minRecords times is a sample: a warning saying so', () => {
    const few = profile(page(rows(4)));
    const [d] = compareProfiles(few, profile(page(rows(4, (r) => (r.note = null)))));
    expect(d).toMatchObject({ severity: 'warning', kind: 'nullability' });
    expect(d.message).toMatch(/in 4 value\(s\) seen \(fewer than 10: a sample, not behaviour\)/);
    // Seen 20 times: behaviour, and the count is in the finding.
    const [often] = compareProfiles(then, profile(page(rows(10, (r) => (r.note = null)))));
    expect(often).toMatchObject({ severity: 'failure', kind: 'nullability' });
    expect(often.message).toMatch(/in 20 value\(s\) seen/);
  });

  it('a format fails only when (nearly) every value left it; some values in another form warn', () => {
    const some = profile(page(rows(10, (r, i) => i < 3 && (r.updated = 'soon'))));
    const [d] = compareProfiles(then, some);
    expect(d).toMatchObject({ severity: 'warning', kind: 'format' });
    expect(d.message).toMatch(/date-time in all 20 string\(s\) seen; now 3 of 10 \(30%\) as other/);
    const all = profile(page(rows(10, (r) => (r.updated = '2026-01-01'))));
    expect(kinds(then, all)).toEqual(['failure format /data/*/updated']);
  });

  it('a new field in some records is a sample; in (nearly) every record it warns', () => {
    const some = profile(page(rows(10, (r, i) => i < 5 && (r.extra = 1))));
    expect(kinds(then, some)).toEqual([]);
  });

  it('identifiers, hrefs and dates are not enums, however often a value repeats', () => {
    const linked = (suffix: string) =>
      rows(10, (r, i) => {
        r.agileId = `A${(i % 2) + suffix}`;
        r.href = `/things/${(i % 2) + suffix}`;
        r.docUrl = `x${(i % 2) + suffix}`;
        r.when = `2026-01-0${(i % 2) + 1}`;
      });
    const before = profile(...Array.from({ length: 4 }, () => page(linked(''))));
    expect(kinds(before, profile(page(linked('9'))))).toEqual([]);
  });

  it("a new value of an enum the document declares is the validators' to judge, not drift", () => {
    const often = profile(page(rows(10)), page(rows(10)), page(rows(10)), page(rows(10)));
    const now = profile(page(rows(10, (r, i) => i === 0 && (r.kind = 'z'))));
    expect(kinds(often, now)).toEqual(['warning enum-value /data/*/kind']);
    const declared = declaring({
      '/data/*/kind': { types: new Set(['string']), enumerated: true },
    });
    expect(compareProfiles(often, now, DEFAULT_THRESHOLDS, declared)).toEqual([]);
  });
});
