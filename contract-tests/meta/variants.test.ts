/**
 * @module meta/variants.test
 * Proof that the suite raises no false alarm: a real mock behind a proxy that changes one thing the
 * source and the reference allow (a conforming server that differs from ours), and the suite's own
 * checks must report no failure, only the warnings that name what differed. The broken servers
 * are in drift.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/contract/index.js';
import { checkBadInput } from '../../src/suite/checks/bad-input.js';
import { checkDownloads } from '../../src/suite/checks/downloads.js';
import { checkFilters } from '../../src/suite/checks/filters.js';
import { checkHrefs } from '../../src/suite/checks/hrefs.js';
import { checkNotFound } from '../../src/suite/checks/not-found.js';
import { checkEveryOperation } from '../../src/suite/checks/operations.js';
import { checkPagination } from '../../src/suite/checks/pagination.js';
import {
  checkRateLimitCountdown,
  checkRateLimitExceeded,
} from '../../src/suite/checks/rate-limit.js';
import { checkSorting } from '../../src/suite/checks/sorting.js';
import type { Check, Scope } from '../../src/suite/support/context.js';
import { formatFinding } from '../../src/suite/support/findings.js';
import { loadContract } from '../../src/contract/index.js';
import { PAGING, listOperations, queryParameter } from '../../src/suite/support/records.js';
import { failures, mapField, runChecks, startTarget, type Body, type Target } from './harness.js';
import type { Mutation, ProxiedRequest } from './mutating-proxy.js';

let target: Target;
let passThrough: Target;
let lists: Operation[];

beforeAll(async () => {
  target = await startTarget();
  passThrough = await startTarget({ rewriteHrefs: false });
  lists = listOperations(await loadContract({ release: 'unreleased' }));
});

afterAll(async () => {
  await target?.close();
  await passThrough?.close();
});

/** The first list whose default for parameter `name` neither the source nor the reference states (inferred, or no default). */
function listWithUnstatedDefault(
  name: string,
  also: (op: Operation) => boolean = () => true,
): Operation | undefined {
  return lists.find((op) => {
    const p = queryParameter(op, name);
    return (
      p !== undefined && (p.source === 'inferred' || p.schema.default === undefined) && also(op)
    );
  });
}

/** Compares like a server using byte order (code units), numbers numerically. */
function byteOrder(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a ?? '');
  const sb = String(b ?? '');
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Titles that begin in lower case, and pages sorted by byte order (upper case before lower case). */
const byteOrderTitles: Mutation = {
  response(res, req) {
    const body = res.json as Body | undefined;
    if (res.status !== 200 || !Array.isArray(body?.data)) return;
    body.data.forEach((r, i) => {
      if (typeof r.title === 'string' && i % 2 === 0)
        r.title = r.title.charAt(0).toLowerCase() + r.title.slice(1);
    });
    const order = req.query.get(PAGING.order);
    if (!order) return;
    const keys = order.split(',');
    const directions = (req.query.get(PAGING.direction) ?? 'desc').split(',');
    body.data.sort((a, b) => {
      for (const [k, key] of keys.entries()) {
        const c = byteOrder(a[key], b[key]);
        if (c !== 0) return (directions[k] ?? directions[0]) === 'desc' ? -c : c;
      }
      return 0;
    });
  },
};

/** Deepest category entry titles of a record (flat or grouped form). */
function leafTitles(record: Record<string, unknown>): string[] {
  const entries = (Array.isArray(record.category) ? record.category.flat() : []) as {
    level?: number;
    title?: string;
  }[];
  const deepest = Math.max(...entries.map((e) => e.level ?? 0));
  return entries.filter((e) => e.level === deepest).map((e) => String(e.title).toLowerCase());
}

/** A `category` filter that matches only the leaf level. */
const leafOnlyCategory: Mutation = {
  response(res, req) {
    const wanted = req.query.get('category');
    const body = res.json as Body | undefined;
    if (!wanted || res.status !== 200 || !Array.isArray(body?.data)) return;
    body.data = body.data.filter((r) => leafTitles(r).includes(wanted.toLowerCase()));
    body.pagination = { ...body.pagination, total: body.data.length, has_more: false };
  },
};

/** Every error answer (4xx) in other words; malformed query input gets 422. */
const otherErrorWording: Mutation = {
  response(res, req) {
    if (res.status < 400 || res.status >= 500) return;
    if (res.status === 400 && req.method === 'GET') res.status = 422;
    const body = res.json as Record<string, unknown> | undefined;
    if (body && typeof body.error === 'string')
      body.error = `Request could not be processed (${res.status})`;
  },
};

/** JSON with indentation, gzip, chunked framing, and dates in another format. */
const otherWireForm: Mutation = {
  response(res) {
    res.wire = { indent: 2, gzip: true, chunked: true };
    if (res.json !== undefined)
      mapField(res.json, 'wwwUpdateDate', (v) =>
        typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toUTCString() : v,
      );
  },
};

/** No rate-limit headers at all (the reference publishes none). */
const noRateLimitHeaders: Mutation = {
  response(res) {
    res.headers.delete('x-ratelimit-limit');
    res.headers.delete('x-ratelimit-remaining');
  },
};

/** The first request to each path gets a 429 that states its wait only in the body's `retry_after`. */
function bodyOnlyRetryAfter(): Mutation {
  const seen = new Set<string>();
  return {
    reply(req: ProxiedRequest) {
      if (req.headers['x-api-key'] === undefined || seen.has(req.path)) return undefined;
      seen.add(req.path);
      return {
        status: 429,
        headers: new Headers({ 'content-type': 'application/json' }),
        json: { error: 'Too many requests', code: 429, retry_after: 2 },
      };
    },
  };
}

/** Requests naming an inferred query parameter of their list are refused with 400. */
function refuseInferredNames(): Mutation {
  return {
    reply(req) {
      const op = lists.find((l) => l.path === req.path && req.method === 'GET');
      const inferred =
        op?.parameters
          .filter(
            (p) =>
              p.in === 'query' &&
              p.source === 'inferred' &&
              p.name !== PAGING.limit &&
              p.name !== PAGING.page,
          )
          .map((p) => p.name) ?? [];
      const named = inferred.find((name) => req.query.has(name));
      if (!named) return undefined;
      return {
        status: 400,
        headers: new Headers({ 'content-type': 'application/json' }),
        json: { error: `Unknown parameter ${named}` },
      };
    },
  };
}

/** `limit` above 20 is capped to 20 (and says so in pagination.limit). */
const cappedLimit: Mutation = {
  request(req) {
    const limit = Number(req.query.get(PAGING.limit));
    if (limit > 20) req.query.set(PAGING.limit, '20');
  },
};

/** A different default page size on a list where none is stated. */
function otherDefaultPageSize(list: Operation): Mutation {
  return {
    request(req) {
      if (req.path === list.path && !req.query.has(PAGING.limit)) req.query.set(PAGING.limit, '7');
    },
  };
}

/** The opposite default direction on a list where no default order is stated. */
function otherDefaultOrder(list: Operation): Mutation {
  return {
    request(req) {
      if (
        req.path === list.path &&
        !req.query.has(PAGING.order) &&
        !req.query.has(PAGING.direction)
      )
        req.query.set(PAGING.direction, 'asc');
    },
  };
}

/** Fields whose presence neither the source nor the reference states, left out of every record. */
const UNSTATED_FIELDS = [
  'images',
  'uuid',
  'features',
  'applications',
  'shortDescription',
  'nid',
  'chipImage',
  'url',
];
const sparseRecords: Mutation = {
  response(res) {
    if (res.status !== 200 || !res.json) return;
    for (const record of recordsOf(res.json as Body))
      for (const key of UNSTATED_FIELDS) delete record[key];
  },
};

/** The records of a list page, or the one record of a by-ID answer. */
function recordsOf(body: Body): Record<string, unknown>[] {
  return Array.isArray(body.data) ? body.data : [body];
}

/** The source's forms where it and the reference disagree (the mock serves the reference's). */
const sourceForms: Mutation = {
  response(res, req) {
    if (res.status !== 200 || !res.json) return;
    for (const r of recordsOf(res.json as Body)) {
      // Grouped categories (the source's sample), board categories as names, tool categories as {title}, one sub-type string.
      if (Array.isArray(r.category) && req.path.startsWith('/boards-kits'))
        r.category = (r.category as { title: string }[]).map((e) => e.title);
      else if (Array.isArray(r.category) && r.category.length > 0) r.category = [r.category];
      if (Array.isArray(r.parentSoftwareCategory))
        r.parentSoftwareCategory = (r.parentSoftwareCategory as string[]).map((title) => ({
          title,
        }));
      if (Array.isArray(r.subType)) r.subType = (r.subType as string[])[0] ?? null;
    }
  },
};

interface Variant {
  name: string;
  checks: Check[];
  scope?: Scope;
  mutation?: () => Mutation | undefined;
  /** Warnings that must name what differed. */
  warns?: string[];
  on?: () => Target;
  env?: () => Record<string, string>;
  /** Skipped (with the reason) when the document gives this variant nothing to vary. */
  unless?: () => string | undefined;
}

const everything: Check[] = [
  checkEveryOperation,
  checkPagination,
  checkSorting,
  checkFilters,
  checkHrefs,
  checkNotFound,
  checkBadInput,
  checkDownloads,
];

const variants: Variant[] = [
  {
    name: 'a plain pass-through proxy that does not forward Host (absolute hrefs name the service origin)',
    checks: [checkEveryOperation, checkHrefs],
    on: () => passThrough,
    warns: ['href-origin'],
  },
  {
    name: 'the same proxy, with CONTRACT_PUBLIC_BASE_URL naming that origin',
    checks: [checkHrefs],
    on: () => passThrough,
    env: () => ({ CONTRACT_PUBLIC_BASE_URL: passThrough.mock.url }),
  },
  {
    name: 'no rate-limit headers (one warning per run)',
    checks: [checkEveryOperation, checkPagination, checkRateLimitCountdown, checkRateLimitExceeded],
    scope: { family: 'packages' },
    mutation: () => noRateLimitHeaders,
    warns: ['rate-limit-headers'],
  },
  {
    name: "429s that give the wait only in the body's retry_after",
    checks: [checkEveryOperation],
    scope: { family: 'packages' },
    mutation: bodyOnlyRetryAfter,
  },
  {
    name: 'titles in lower case, sorted by byte order',
    checks: [checkSorting, checkPagination],
    mutation: () => byteOrderTitles,
  },
  {
    name: 'a category filter that matches only the leaf level',
    checks: [checkFilters],
    scope: { family: 'products' },
    mutation: () => leafOnlyCategory,
    warns: ['filter'],
  },
  {
    name: '422 and other wording for malformed input, other wording for every error',
    checks: [checkBadInput, checkNotFound],
    mutation: () => otherErrorWording,
  },
  {
    name: 'pretty-printed, gzip-coded, chunked JSON with dates in RFC 1123 form',
    checks: everything,
    scope: { family: 'boards-kits' },
    mutation: () => otherWireForm,
  },
  {
    name: 'records that leave out fields whose presence neither the source nor the reference states',
    checks: [checkEveryOperation, checkPagination],
    mutation: () => sparseRecords,
    warns: ['absent-field'],
  },
  {
    name: "the source's forms where it and the reference disagree (grouped categories, board categories as names, tool categories as {title}, one sub-type string)",
    checks: [checkEveryOperation, checkFilters],
    mutation: () => sourceForms,
    warns: ['conflict-form'],
  },
  {
    name: 'a limit capped below the request, stated in pagination.limit',
    checks: [checkPagination, checkSorting, checkFilters],
    scope: { family: 'products' },
    mutation: () => cappedLimit,
    warns: ['pagination.limit-capped'],
  },
  {
    name: 'inferred filter and sort names refused with 400',
    checks: [checkFilters, checkSorting],
    mutation: refuseInferredNames,
    warns: ['inferred-request-refused', 'not-run'],
    unless: () =>
      lists.some((op) =>
        op.parameters.some(
          (p) =>
            p.in === 'query' &&
            p.source === 'inferred' &&
            p.name !== PAGING.limit &&
            p.name !== PAGING.page,
        ),
      )
        ? undefined
        : 'no inferred query parameter in the document',
  },
  {
    name: 'another default page size where none is stated',
    checks: [checkPagination],
    mutation: () => otherDefaultPageSize(listWithUnstatedDefault(PAGING.limit)!),
    unless: () =>
      listWithUnstatedDefault(PAGING.limit) ? undefined : 'every list states its default page size',
  },
  {
    name: 'another default order where none is stated',
    checks: [checkPagination, checkSorting],
    mutation: () =>
      otherDefaultOrder(
        listWithUnstatedDefault(
          PAGING.order,
          (op) => queryParameter(op, PAGING.direction) !== undefined,
        )!,
      ),
    unless: () =>
      listWithUnstatedDefault(
        PAGING.order,
        (op) => queryParameter(op, PAGING.direction) !== undefined,
      )
        ? undefined
        : 'every sortable list states its default order',
  },
];

describe('conforming servers that differ from the mock pass', () => {
  // A variant the document gives nothing to vary is reported as skipped, with the reason.
  it.for(variants)('$name', async (variant, { skip }) => {
    const skipReason = variant.unless?.();
    if (skipReason) return skip(skipReason);
    const on = variant.on?.() ?? target;
    const env = variant.env?.() ?? {};
    const { findings } = await runChecks(
      on,
      variant.checks,
      variant.scope,
      variant.mutation?.(),
      env,
    );
    expect(failures(findings).map(formatFinding)).toEqual([]);
    for (const rule of variant.warns ?? [])
      expect(
        findings.filter((f) => f.severity === 'warning').map((f) => f.rule),
        `a warning "${rule}"`,
      ).toContain(rule);
  });

  it('says "no rate-limit headers" once per run, not once per response', async () => {
    const { findings } = await runChecks(
      target,
      [checkEveryOperation, checkPagination],
      { family: 'packages' },
      noRateLimitHeaders,
    );
    const said = findings.filter((f) => f.rule === 'rate-limit-headers');
    expect(said).toHaveLength(1);
    expect(formatFinding(said[0])).toMatch(/assumed: .*may\* carry/);
  });

  it('waits out a 429 whose wait is only in the body, and goes on', async () => {
    const { findings, slept } = await runChecks(
      target,
      [checkEveryOperation],
      { family: 'packages' },
      bodyOnlyRetryAfter(),
    );
    expect(slept).toContain(2000);
    expect(failures(findings)).toEqual([]);
  });

  it('names the origin absolute hrefs use, once', async () => {
    const { findings } = await runChecks(
      passThrough,
      [checkHrefs, checkHrefs],
      undefined,
      undefined,
    );
    const origin = findings.filter((f) => f.rule === 'href-origin');
    expect(origin).toHaveLength(1);
    expect(origin[0].actual).toBe(new URL(passThrough.mock.url).origin);
  });
});
