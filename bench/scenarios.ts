/**
 * @module bench/scenarios
 * What the bench asks the mock, built from identifiers the running mock reported (so every
 * scenario is a real 200, never a cheap 404), and the capture of one real response for the
 * baseline to replay.
 */
import type { CapturedResponse } from './ipc.js';
import { BENCH_KEY } from './startup.js';

/** The page size of the list scenarios (the documented default). */
const PAGE_SIZE = 10;
/** Hop-by-hop and per-response headers the baseline sets itself. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface MockInfo {
  products: number;
  parts: number;
  partWithHash?: string;
  partNumbers: string[];
}

export interface Scenario {
  id: string;
  title: string;
  method: 'GET' | 'POST';
  /** Below the API base URL, already percent-encoded. */
  path: string;
  body?: string;
}

export const LIST_SCENARIO = 'products-list';

export function listScenario(): Scenario {
  return { id: LIST_SCENARIO, title: 'products list page', method: 'GET', path: `/products?limit=${PAGE_SIZE}` };
}

/** Every scenario of a scale-1 run. */
export function allScenarios(info: MockInfo): Scenario[] {
  const lastPage = Math.max(0, Math.ceil(info.products / PAGE_SIZE) - 1);
  if (!info.partWithHash) throw new Error('the dataset has no orderableId with "#": the by-ID scenario needs one');
  return [
    listScenario(),
    { id: 'products-last-page', title: `products last page (offset=${lastPage})`, method: 'GET', path: `/products?limit=${PAGE_SIZE}&offset=${lastPage}` },
    {
      id: 'boards-filtered-sorted',
      title: 'boards-kits filtered, two sort keys',
      method: 'GET',
      path: '/boards-kits?boardKitType=evaluation&order=boardKitType,title&orderDirection=asc,desc',
    },
    { id: 'part-by-id', title: 'product part by ID (%23 in the id)', method: 'GET', path: `/product-parts/${encodeURIComponent(info.partWithHash)}` },
    {
      id: 'cross-reference-200',
      title: `cross-reference POST, ${info.partNumbers.length} numbers`,
      method: 'POST',
      path: '/product-parts/cross-reference',
      body: JSON.stringify({ partNumbers: info.partNumbers }),
    },
  ];
}

export function requestHeaders(scenario: Scenario): Record<string, string> {
  return { 'x-api-key': BENCH_KEY, accept: 'application/json', ...(scenario.body ? { 'content-type': 'application/json' } : {}) };
}

/** One real answer of the mock for the scenario; throws unless it is a 200 (a bench of errors measures nothing). */
export async function capture(baseUrl: string, scenario: Scenario): Promise<CapturedResponse> {
  const res = await fetch(`${baseUrl}${scenario.path}`, { method: scenario.method, headers: requestHeaders(scenario), body: scenario.body });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${scenario.method} ${scenario.path} answered ${res.status}: ${body.toString('utf8', 0, 300)}`);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!NOT_REPLAYED.has(name)) headers[name] = value;
  });
  return { status: res.status, headers, bodyBase64: body.toString('base64') };
}
