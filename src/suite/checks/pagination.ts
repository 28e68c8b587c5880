/**
 * @module checks/pagination
 * Pagination arithmetic the schema cannot express, on every list: `pagination.offset` is the
 * items skipped (page x limit where `offset` counts pages, the offset itself where the document
 * says it counts items: `x-offset`),
 * `limit` is honoured, `data` holds min(limit, what is left), `has_more` is true exactly when more
 * items follow, `total` is stable, pages do not overlap and together cover `total`. Short lists are
 * walked whole; long ones are sampled (first pages, middle, last, one past the end).
 * The default page size is held to the document with the severity of its source (where neither the
 * source nor the reference states one, a different default is a warning), and the walk then uses
 * the size the target says it used. A `limit` capped below the request is accepted (a warning) when
 * `pagination.limit` says so and the page is consistent with it: the maximum is not stated for
 * every list.
 */
import { itemsSkipped, judgePage, offsetUnitOf, type Operation } from '../../contract/index.js';
import type { TargetExchange } from '../support/client.js';
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { Probe } from '../support/probe.js';
import {
  PAGING,
  idOf,
  isRecord,
  listOperations,
  offsetOfPage,
  queryParameter,
  type Json,
} from '../support/records.js';

/** The non-default page size used to see that `limit` is honoured (small, so it splits a default page). */
const SMALL_LIMIT = 3;
/** Which page of the small size to ask for: not the first, so offset arithmetic shows. */
const SMALL_PAGE = 1;

interface Page {
  ex: TargetExchange;
  data: Json[];
  pagination: Record<string, Json>;
}

function pageOf(ex: TargetExchange): Page | undefined {
  if (!isRecord(ex.json) || !Array.isArray(ex.json.data) || !isRecord(ex.json.pagination))
    return undefined;
  return { ex, data: ex.json.data, pagination: ex.json.pagination };
}

function defaultOf(op: Operation, name: string): number {
  return Number(queryParameter(op, name)?.schema.default ?? 0);
}

function positiveInteger(value: Json): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** The largest page asked for when looking for a cap (the reference's maximum; keeps bodies small). */
const CAP_PROBE_LIMIT = 100;
const DEFAULT_LIMIT_NOT_STATED =
  'where neither the source nor the reference states a default page size, the one declared is our guess';
const LIMIT_CAP_NOT_STATED =
  'the maximum of `limit` is not shown by the source (Limits rule 4); a server may cap it, saying so in pagination.limit';

type Fail = (
  ex: TargetExchange,
  rule: string,
  expected: string,
  actual: unknown,
  message: string,
  pointer?: string,
) => void;

/** What a finding expects `pagination.offset` to be for page `page` at `limit`, and why. */
function explainOffset(op: Operation, page: number, limit: number): string {
  return offsetUnitOf(op) === 'item'
    ? `offset = ${page * limit} items (offset counts items on this list)`
    : `offset = page x limit = ${page} x ${limit} = ${page * limit}`;
}

/**
 * Asks for the largest page the document allows: the target may honour it, or cap it below the
 * request when `pagination.limit` says so and the page holds no more than that (a warning).
 */
async function checkCap(probe: Probe, op: Operation, limit: number, fail: Fail): Promise<void> {
  const max = Math.min(CAP_PROBE_LIMIT, Number(queryParameter(op, PAGING.limit)?.schema.maximum));
  if (!Number.isSafeInteger(max) || max <= limit) return;
  const page = pageOf(
    await probe.call(op, { query: [[PAGING.limit, String(max)]], expectStatus: [200] }),
  );
  if (!page) return;
  const used = page.pagination.limit;
  const total = Number(page.pagination.total);
  if (used === max) {
    if (page.data.length !== Math.min(max, total))
      fail(
        page.ex,
        'pagination.count',
        `${Math.min(max, total)} items at limit ${max}`,
        page.data.length,
        'page holds the wrong number of items',
        '/data',
      );
  } else if (positiveInteger(used) && used < max && page.data.length === Math.min(used, total)) {
    probe.add(op, page.ex, {
      rule: 'pagination.limit-capped',
      source: 'inferred',
      severity: 'warning',
      pointer: '/pagination/limit',
      expected: `limit ${max} (as requested)`,
      actual: String(used),
      message: `limit=${max} capped to ${used}, consistently (pagination.limit and the page agree)`,
      assumption: LIMIT_CAP_NOT_STATED,
    });
  } else {
    fail(
      page.ex,
      'pagination.limit',
      `limit ${max} as requested, or a cap stated in pagination.limit and kept by the page`,
      `pagination.limit ${show(used)}, ${page.data.length} items`,
      'requested limit neither honoured nor consistently capped',
      '/pagination/limit',
    );
  }
}

/**
 * A `Fail` that reports each rule once per list (one finding per rule and list is enough to act
 * on); `reported` is shared with findings added outside it, so they count too.
 */
function failOncePerRule(probe: Probe, op: Operation, reported: Set<string>): Fail {
  return (ex, rule, expected, actual, message, pointer = '/pagination') => {
    if (reported.has(rule)) return;
    reported.add(rule);
    probe.add(op, ex, {
      rule,
      pointer,
      expected,
      actual: show(actual),
      message,
      source: 'documented',
    });
  };
}

/** The default page size, held to the document with the severity of its source. */
function checkDefaultLimit(probe: Probe, op: Operation, first: Page, reported: Set<string>): void {
  const declaredLimit = defaultOf(op, PAGING.limit);
  if (declaredLimit <= 0 || first.pagination.limit === declaredLimit) return;
  const source = queryParameter(op, PAGING.limit)?.source ?? op.source;
  probe.add(op, first.ex, {
    rule: 'pagination.limit',
    source,
    pointer: '/pagination/limit',
    expected: `the default limit ${declaredLimit}`,
    actual: show(first.pagination.limit),
    message: 'default limit not applied',
    assumption: source === 'inferred' ? DEFAULT_LIMIT_NOT_STATED : undefined,
  });
  reported.add('pagination.limit');
}

/** The page size the target says it used on its default page (else the declared default). */
function pageSizeUsed(op: Operation, first: Page): number {
  return positiveInteger(first.pagination.limit)
    ? first.pagination.limit
    : defaultOf(op, PAGING.limit) || 1;
}

/** Which pages to ask for: every one and one past the end when few, else a sample. */
function pagesToWalk(pageCount: number, walkAll: boolean): number[] {
  return walkAll
    ? Array.from({ length: pageCount + 1 }, (_, p) => p)
    : [...new Set([0, 1, Math.floor(pageCount / 2), pageCount - 1, pageCount])];
}

/** What walking the pages saw: the page each record was on, and the first pages' IDs in order. */
interface Walk {
  seen: Map<string, number>;
  ordered: string[];
}

/** No record on two pages; notes each record's page, and the order of the first pages. */
function checkNoOverlap(op: Operation, page: Page, p: number, walk: Walk, fail: Fail): void {
  page.data.forEach((record, i) => {
    const id = idOf(op, record);
    if (id === undefined) return;
    const before = walk.seen.get(id);
    if (before !== undefined && before !== p)
      fail(
        page.ex,
        'pagination.overlap',
        'pages that do not overlap',
        `${id} on pages ${before} and ${p}`,
        `record ${show(id)} appears on two pages`,
        `/data/${i}`,
      );
    walk.seen.set(id, p);
    if (p <= SMALL_PAGE) walk.ordered.push(id);
  });
}

/** Asks for each page at `limit` and holds its arithmetic and records to the rules. */
async function walkPages(
  probe: Probe,
  op: Operation,
  at: { limit: number; total: number; pages: number[] },
  fail: Fail,
): Promise<Walk> {
  const { limit, total } = at;
  const walk: Walk = { seen: new Map(), ordered: [] };
  for (const p of at.pages) {
    const query: [string, string][] = [
      [PAGING.limit, String(limit)],
      [PAGING.page, String(offsetOfPage(op, p, limit))],
    ];
    const page = pageOf(await probe.call(op, { query, expectStatus: [200] }));
    if (!page) continue;
    // The page's arithmetic: the same judgement the mock gives a stubbed page.
    for (const j of judgePage(page, {
      offset: p * limit,
      limit,
      total,
      page: p,
      offsetExplained: explainOffset(op, p, limit),
    }))
      fail(page.ex, j.rule, j.expected, j.actual, j.message, j.pointer);
    checkNoOverlap(op, page, p, walk, fail);
  }
  return walk;
}

/** A smaller page size must cut the same ordering at page x limit. */
async function checkSmallPage(
  probe: Probe,
  op: Operation,
  small: number,
  ordered: string[],
  fail: Fail,
): Promise<void> {
  const smallPage = pageOf(
    await probe.call(op, {
      query: [
        [PAGING.limit, String(small)],
        [PAGING.page, String(offsetOfPage(op, SMALL_PAGE, small))],
      ],
      expectStatus: [200],
    }),
  );
  if (!smallPage) return;
  const start = SMALL_PAGE * small;
  if (smallPage.pagination.limit !== small)
    fail(
      smallPage.ex,
      'pagination.limit',
      `limit ${small} (as requested)`,
      smallPage.pagination.limit,
      'requested limit not honoured',
      '/pagination/limit',
    );
  if (smallPage.pagination.offset !== start)
    fail(
      smallPage.ex,
      'pagination.offset',
      explainOffset(op, SMALL_PAGE, small),
      smallPage.pagination.offset,
      'pagination.offset is not the items skipped',
      '/pagination/offset',
    );
  checkSmallSlice(smallPage, start, small, ordered.slice(start, start + small), op, fail);
}

/** The small page holds at most `small` items, and the matching slice of the default ordering. */
function checkSmallSlice(
  smallPage: Page,
  start: number,
  small: number,
  want: string[],
  op: Operation,
  fail: Fail,
): void {
  const got = smallPage.data.map((r) => idOf(op, r));
  if (got.length > small)
    fail(
      smallPage.ex,
      'pagination.limit',
      `at most ${small} items`,
      got.length,
      'more items than the requested limit',
      '/data',
    );
  else if (want.length === small && JSON.stringify(got) !== JSON.stringify(want))
    fail(
      smallPage.ex,
      'pagination.offset',
      `items ${start}..${start + small - 1} of the default ordering: ${show(want)}`,
      got,
      `page ${SMALL_PAGE} at limit ${small} is not the matching slice`,
      '/data',
    );
}

/** Every pagination rule on one list operation. */
async function checkList(probe: Probe, op: Operation, maxWalkPages: number): Promise<void> {
  const reported = new Set<string>();
  const fail = failOncePerRule(probe, op, reported);
  const first = pageOf(await probe.cached(op));
  if (!first) return; // the probe already reported the shape
  checkDefaultLimit(probe, op, first, reported);
  // From here on, the page size the target says it used.
  const limit = pageSizeUsed(op, first);
  const startOffset = itemsSkipped(offsetUnitOf(op), defaultOf(op, PAGING.page), limit);
  if (first.pagination.offset !== startOffset)
    fail(
      first.ex,
      'pagination.offset',
      `offset ${startOffset} for the default page`,
      first.pagination.offset,
      'default page does not start at offset 0',
      '/pagination/offset',
    );
  const total = Number(first.pagination.total);
  const pageCount = Math.ceil(total / limit);
  const walkAll = pageCount <= maxWalkPages;
  const pages = pagesToWalk(pageCount, walkAll);
  const { seen, ordered } = await walkPages(probe, op, { limit, total, pages }, fail);
  if (walkAll && seen.size !== total) {
    const last = await probe.cached(op);
    fail(
      last,
      'pagination.cover',
      `the pages together hold total = ${total} distinct records`,
      seen.size,
      'walking every page does not yield total records',
    );
  }
  await checkCap(probe, op, limit, fail);
  await checkSmallPage(probe, op, Math.min(SMALL_LIMIT, limit), ordered, fail);
}

export const checkPagination: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of listOperations(ctx.contract, scope))
    await checkList(probe, op, ctx.options.maxWalkPages);
  return probe.result();
};
