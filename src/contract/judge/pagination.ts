/**
 * @module contract/judge/pagination
 * The arithmetic of one list page that no schema can state: `limit` is the one asked for, `offset`
 * is the items skipped, `total` is the list's, `data` holds min(limit, what is left) and
 * `has_more` is true exactly when more items follow. The suite holds every page it walks to it;
 * the mock holds a stub's answer to it for the request the stub's match describes.
 */
import { itemsSkipped, offsetUnitOf, PAGING } from '../list-parameters.js';
import type { Operation } from '../model.js';
import { isJsonObject } from './json.js';
import type { Judgement } from './finding.js';

/** What the page should be: the items skipped, the page size, the list's total. */
export interface PageExpectation {
  offset: number;
  limit: number;
  total: number;
  /** How the expected offset came about, for the finding (`offset = page x limit = 1 x 3 = 3`). */
  offsetExplained?: string;
  /** The page's number, when the caller walks pages (named in the count finding). */
  page?: number;
}

/** A `{data: [...], pagination: {...}}` body, or undefined when the body is not one. */
export function pageOf(
  body: unknown,
): { data: unknown[]; pagination: Record<string, unknown> } | undefined {
  if (!isJsonObject(body) || !Array.isArray(body.data) || !isJsonObject(body.pagination))
    return undefined;
  return { data: body.data, pagination: body.pagination };
}

/** Every rule of page arithmetic the page breaks against what was asked. */
export function judgePage(
  page: { data: unknown[]; pagination: Record<string, unknown> },
  want: PageExpectation,
): Judgement[] {
  const { data, pagination } = page;
  const { offset, limit, total } = want;
  const out: Judgement[] = [];
  const add = (rule: string, pointer: string, expected: string, actual: unknown, message: string) =>
    out.push({ rule, pointer, expected, actual, message, source: 'documented' });
  if (pagination.limit !== limit)
    add(
      'pagination.limit',
      '/pagination/limit',
      `limit ${limit} (as requested)`,
      pagination.limit,
      'requested limit not honoured',
    );
  if (pagination.offset !== offset)
    add(
      'pagination.offset',
      '/pagination/offset',
      want.offsetExplained ?? `offset = ${offset} items`,
      pagination.offset,
      'pagination.offset is not the items skipped',
    );
  if (pagination.total !== total)
    add(
      'pagination.total',
      '/pagination/total',
      `the same total on every page (${total})`,
      pagination.total,
      'total changes between pages',
    );
  const expectedLength = Math.max(0, Math.min(limit, total - offset));
  if (data.length !== expectedLength)
    add(
      'pagination.count',
      '/data',
      want.page === undefined
        ? `${expectedLength} items at offset ${offset} of ${total} at limit ${limit}`
        : `${expectedLength} items on page ${want.page} of ${total} at limit ${limit}`,
      data.length,
      'page holds the wrong number of items',
    );
  const more = offset + data.length < total;
  if (pagination.has_more !== more)
    add(
      'pagination.has_more',
      '/pagination/has_more',
      `has_more ${more} (${offset} + ${data.length} of ${total})`,
      pagination.has_more,
      'has_more disagrees with offset, count and total',
    );
  return out;
}

/**
 * The page a request asks a list for: `limit` and `offset` from its query (GET) or its body
 * (POST search), defaults applied; undefined when the operation does not page.
 */
export function pageAskedFor(
  op: Operation,
  query: Record<string, unknown>,
  body?: unknown,
): { offset: number; limit: number } | undefined {
  const from = op.method === 'get' ? query : isJsonObject(body) ? body : {};
  const limit = from[PAGING.limit];
  const offset = from[PAGING.page] ?? 0;
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset)) return undefined;
  return {
    limit: limit as number,
    offset: itemsSkipped(offsetUnitOf(op), offset as number, limit as number),
  };
}

/**
 * An answer's own page judged against the request: what `judgePage` says, with the answer's own
 * total taken as the list's (a stub may say how long its list is, not break the arithmetic).
 */
export function judgeAnsweredPage(
  op: Operation,
  body: unknown,
  asked: { offset: number; limit: number } | undefined,
): Judgement[] {
  const page = pageOf(body);
  if (!page || !asked) return [];
  const total = page.pagination.total;
  if (!Number.isSafeInteger(total) || (total as number) < 0) return []; // the schema says so
  return judgePage(page, { ...asked, total: total as number }).map((j) => ({
    ...j,
    message: `${j.message} (${op.operationId} asked for limit ${asked.limit}, ${asked.offset} items skipped)`,
  }));
}
