/**
 * @module support/family-suite
 * The tests of one endpoint family: each check of the library, narrowed to the family's
 * operations. A check with nothing to look at in a family (no downloads, no request bodies) passes
 * with no findings.
 */
import { describe, it } from 'vitest';
import { checkBadInput } from '../checks/bad-input.js';
import { checkRequestLimits } from '../checks/cross-reference.js';
import { checkCrossReferenceMatches } from '../checks/cross-reference-matches.js';
import { checkDeclaredStatuses } from '../checks/declared-statuses.js';
import { checkDownloads } from '../checks/downloads.js';
import { checkFilters } from '../checks/filters.js';
import { checkHrefs } from '../checks/hrefs.js';
import { checkIdEncoding } from '../checks/id-encoding.js';
import { checkNotFound } from '../checks/not-found.js';
import { checkEveryOperation } from '../checks/operations.js';
import { checkPagination } from '../checks/pagination.js';
import { checkSearch } from '../checks/search.js';
import { checkSorting } from '../checks/sorting.js';
import { runCheck } from './suite.js';

export function familySuite(family: string): void {
  const scope = { family };
  describe(`${family}`, () => {
    it('every operation answers a valid request as the document says', (t) =>
      runCheck(t, checkEveryOperation, scope));
    it('by-ID operations answer 404 {error} for unknown identifiers', (t) =>
      runCheck(t, checkNotFound, scope));
    it('pagination: offset = page x limit, limit honoured, has_more exact, pages cover total', (t) =>
      runCheck(t, checkPagination, scope));
    it('sort order for every allowed order and direction, multi-key', (t) =>
      runCheck(t, checkSorting, scope));
    it('filters return only matching records', (t) => runCheck(t, checkFilters, scope));
    it('hrefs in records resolve on the base URL', (t) => runCheck(t, checkHrefs, scope));
    it('percent-encoded identifiers round-trip (# as %23)', (t) =>
      runCheck(t, checkIdEncoding, scope));
    it('downloads: HEAD and GET agree on length and type', (t) =>
      runCheck(t, checkDownloads, scope));
    it('bounded request lists: the limit accepted, one more rejected', (t) =>
      runCheck(t, checkRequestLimits, scope));
    it('parametric search: every part returned belongs to the product and satisfies every filter, none lost', (t) =>
      runCheck(t, checkSearch, scope));
    it('cross-reference: known numbers match, one entry per input in request order, the matched part resolves', (t) =>
      runCheck(t, checkCrossReferenceMatches, scope));
    it('malformed input gets a 4xx naming the problem', (t) => runCheck(t, checkBadInput, scope));
    it('declared error statuses have their documented bodies (Prefer, mock only)', (t) =>
      runCheck(t, checkDeclaredStatuses, scope));
  });
}
