/**
 * @module evidence/profile-hostile.test
 * Property: whatever JSON, header names and values a server sends (prototype names, numbers
 * beyond a double, markup, the key in any case, bodies nested too deep), folding it into a profile
 * yields one that the writer writes (`profileText`: redacted, read back first), that the reader
 * accepts, that the next night's drift and the ledger can judge, and that holds no form of the key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { holdsSecret } from '../redaction.js';
import { MARKUP_NAMES, MARKUP_VALUES, PROTOTYPE_NAMES } from '../testing/hostile-upstream.js';
import { compareProfiles } from './drift.js';
import { documentFacts } from './facts.js';
import { buildLedger } from './ledger.js';
import { observe } from './observe.js';
import { asProfile, emptyProfile, MAX_PROFILE_DEPTH, merge, profileText } from './profile.js';

const KEY = 'AbCdEf0123456789ABCDEF42';

const KEY_FORMS = [KEY, KEY.toLowerCase(), KEY.toUpperCase(), encodeURIComponent(KEY)];
/** A name a server may choose: ordinary, inherited by every object, markup, or carrying the key. */
const serverName = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...PROTOTYPE_NAMES, ...MARKUP_NAMES, 'x-ratelimit-limit', 'content-type'),
  fc.constantFrom(...KEY_FORMS).map((form) => `x-${form}`),
);
const leaf = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...MARKUP_VALUES, ...PROTOTYPE_NAMES, ...KEY_FORMS),
  fc.integer(),
  // JSON.parse reads 1e400 as Infinity; it never yields NaN.
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);
const { body } = fc.letrec<{ body: unknown }>((tie) => ({
  body: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('body'), { maxLength: 4 }),
    fc.dictionary(serverName, tie('body'), { maxKeys: 5 }),
  ),
}));
const headers = fc.array(
  fc.tuple(
    serverName,
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constant('9'.repeat(400)),
      fc.constantFrom(...KEY_FORMS),
    ),
  ),
  { maxLength: 6 },
);
const operationId = fc.constantFrom('listProducts', 'getProduct', 'constructor', '__proto__');
const status = fc.constantFrom(200, 404, 500);

/** `["a", ...]` 200,000 deep: nested past MAX_PROFILE_DEPTH (and past the stack). */
function deep(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

describe('any JSON a server sends yields a profile the reader and the ledger accept (property)', () => {
  it('folds, writes, reads back and judges', async () => {
    const facts = documentFacts(await loadContract());
    // The ledger costs ~90 ms a profile: it judges every run's profile merged, once.
    let all = emptyProfile();
    fc.assert(
      fc.property(
        fc.array(fc.record({ operationId, status, headers, body }), { minLength: 1, maxLength: 4 }),
        (answers) => {
          const profile = emptyProfile();
          for (const a of answers)
            observe(
              profile,
              {
                operationId: a.operationId,
                method: 'GET',
                path: '/products',
                query: [],
                status: a.status,
                headers: Object.fromEntries(a.headers),
                body: a.body,
              },
              { secrets: [KEY] },
            );
          const text = profileText(profile, [KEY]);
          expect(holdsSecret(text, [KEY])).toBe(false);
          const read = asProfile(JSON.parse(text), 'written');
          expect(read.count).toBe(answers.length);
          expect(merge(read, read).count).toBe(2 * answers.length);
          // The next night compares its profile with this one.
          compareProfiles(read, merge(read, read));
          all = merge(all, read);
        },
      ),
      { numRuns: 100 },
    );
    expect(buildLedger(facts, all).responses).toBe(all.count);
  });

  it(`leaves out an answer nested deeper than ${MAX_PROFILE_DEPTH} and counts it`, () => {
    const profile = emptyProfile();
    for (const levels of [MAX_PROFILE_DEPTH + 1, 200_000])
      observe(profile, {
        operationId: 'listProducts',
        method: 'GET',
        path: '/products',
        query: [],
        status: 200,
        headers: {},
        body: deep(levels),
      });
    expect(profile.unprofiled).toBe(2);
    expect(profile.count).toBe(0);
    expect(asProfile(JSON.parse(profileText(profile)), 'written').unprofiled).toBe(2);
  });
});
