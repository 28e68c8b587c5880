/**
 * @module evidence/drift.test
 * The comparison of two profiles on its own: what fails, what warns, what is no news, and the
 * thresholds that keep one sampled page from standing for every record.
 */
import { describe, expect, it } from 'vitest';
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
    const now = profile(
      page(rows(10, (r, i) => ((r.extra = 1), i === 0 && (r.kind = 'z')))),
      page([], [], 404),
    );
    expect(kinds(then, now)).toEqual([
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
