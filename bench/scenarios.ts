/**
 * @module bench/scenarios
 * What the bench asks the mock, built from what the running mock reported (its `/examples.json`
 * and a few dataset facts, see `bench/mock-child.ts`), so every scenario is a real 200 on the
 * records and request bodies of the current document, never a hard-coded id or a cheap 404; and
 * the capture of one real response for the baseline to replay.
 */
import type { CapturedResponse } from './ipc.js';
import { BENCH_KEY } from './startup.js';

/** The page size of the list scenarios (the documented default). */
const PAGE_SIZE = 10;
/** Hop-by-hop and per-response headers the baseline sets itself. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The dataset size the bench runs at: a scale factor, or the live catalogue's size. */
export type Size = string;
export const LIVE_SIZE: Size = 'live';

/** What the mock child reports once it listens. */
export interface MockInfo {
  size: Size;
  products: number;
  parts: number;
  documents: number;
  boardsKits: number;
  /** An orderable id with `#` (sent as `%23`), from the mock's examples. */
  partWithHash: string;
  /** A software tool id (its title) with spaces, from the mock's examples. */
  toolWithSpaces: string;
  /** The cross-reference request body: 200 competitor numbers the dataset knows. */
  crossReferenceBody: unknown;
  /** A parametric search with three filters that matches at least one part. */
  searchBody: unknown;
  /** The key of a scope the child made (`POST /__mock/scopes`): one test's private view of a shared mock. */
  scopeKey: string;
}

/** Which of the targets a scenario is judged by (none: reported only). */
export type TargetKind = 'list' | 'byId' | 'heavy';

export interface Scenario {
  id: string;
  title: string;
  method: 'GET' | 'POST';
  /** Below the API base URL, already percent-encoded. */
  path: string;
  body?: string;
  target?: TargetKind;
  /** The key sent instead of the bench's demo key (a scope's). */
  apiKey?: string;
}

export const LIST_SCENARIO = 'products-list';
/** The list page's bytes served by Hono alone (no mock code): what the framework costs by itself. */
export const FLOOR_SCENARIO = 'framework-floor';

export function listScenario(): Scenario {
  return {
    id: LIST_SCENARIO,
    title: 'products list, first page',
    method: 'GET',
    path: `/products?limit=${PAGE_SIZE}`,
    target: 'list',
  };
}

function lastPageScenario(info: MockInfo): Scenario {
  // `offset` is a page index on the products list (the server multiplies it by `limit`).
  const lastPage = Math.max(0, Math.ceil(info.products / PAGE_SIZE) - 1);
  return {
    id: 'products-last-page',
    title: `products list, last page (offset=${lastPage})`,
    method: 'GET',
    path: `/products?limit=${PAGE_SIZE}&offset=${lastPage}`,
    target: 'list',
  };
}

/** The list pages only: what the bench runs at the larger sizes. */
export function listScenarios(info: MockInfo): Scenario[] {
  return [listScenario(), lastPageScenario(info)];
}

/** Every scenario of the scale-1 run. */
export function allScenarios(info: MockInfo): Scenario[] {
  return [
    ...listScenarios(info),
    {
      id: 'boards-filtered-sorted',
      title: 'boards-kits filtered, two sort keys',
      method: 'GET',
      path: '/boards-kits?boardKitType=evaluation&order=boardKitType,title&orderDirection=asc,desc',
    },
    {
      id: 'part-by-id',
      title: 'product part by ID (%23 in the id)',
      method: 'GET',
      path: `/product-parts/${encodeURIComponent(info.partWithHash)}`,
      target: 'byId',
    },
    {
      // The same answer through a scope (issue 38): what a test sharing one mock pays for its
      // isolation, beside part-by-id in the same run. Reported, not judged.
      id: 'part-by-id-scoped',
      title: "product part by ID, with a scope's key",
      method: 'GET',
      path: `/product-parts/${encodeURIComponent(info.partWithHash)}`,
      apiKey: info.scopeKey,
    },
    {
      id: 'tool-by-id',
      title: 'software tool by ID (a title with spaces)',
      method: 'GET',
      path: `/software-tools/${encodeURIComponent(info.toolWithSpaces)}`,
      target: 'byId',
    },
    {
      id: 'cross-reference-200',
      title: 'cross-reference POST, 200 numbers',
      method: 'POST',
      path: '/product-parts/cross-reference',
      body: JSON.stringify(info.crossReferenceBody),
      target: 'heavy',
    },
    {
      id: 'search-3-filters',
      title: 'parametric search POST, 3 filters',
      method: 'POST',
      path: '/product-parts/search',
      body: JSON.stringify(info.searchBody),
      target: 'heavy',
    },
  ];
}

export function requestHeaders(scenario: Scenario): Record<string, string> {
  return {
    'x-api-key': scenario.apiKey ?? BENCH_KEY,
    accept: 'application/json',
    ...(scenario.body ? { 'content-type': 'application/json' } : {}),
  };
}

/**
 * One real answer of the mock for the scenario; throws unless it is a 200 and, where the answer
 * is a page (`data`), a non-empty one: a bench of errors or empty pages measures nothing.
 */
export async function capture(baseUrl: string, scenario: Scenario): Promise<CapturedResponse> {
  const res = await fetch(`${baseUrl}${scenario.path}`, {
    method: scenario.method,
    headers: requestHeaders(scenario),
    body: scenario.body,
  });
  const body = Buffer.from(await res.arrayBuffer());
  const problem = `${scenario.method} ${scenario.path} answered ${res.status}: ${body.toString('utf8', 0, 300)}`;
  if (res.status !== 200) throw new Error(problem);
  const data = (JSON.parse(body.toString('utf8')) as { data?: unknown }).data;
  if (Array.isArray(data) && data.length === 0) throw new Error(`${problem} (an empty page)`);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!NOT_REPLAYED.has(name)) headers[name] = value;
  });
  return { status: res.status, headers, bodyBase64: body.toString('base64') };
}
