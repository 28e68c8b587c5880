/**
 * @module testing/observe-target
 * Test support: asks a real target (the mock, or the meta harness's transforming proxy in front of
 * it) a fixed list of requests and folds every answer into a profile the way a client observing
 * its traffic does (undeclared fields named from the document, the key never kept).
 */
import { BASE_PATH, type Contract } from '../contract/index.js';
import { undeclaredPatterns } from '../evidence/declared.js';
import { observe } from '../evidence/observe.js';
import { emptyProfile, type Profile } from '../evidence/profile.js';

export interface Ask {
  operationId: string;
  /** Path below the base path, with its query (`/packages?limit=100`). */
  path: string;
}

/** The demo key the mock accepts everywhere. */
export const TEST_KEY = 'demo-unlimited-key';

/** Sends each request to `baseUrl` (ending in the base path) and returns the profile of the answers. */
export async function observeTarget(
  baseUrl: string,
  contract: Contract,
  asks: readonly Ask[],
): Promise<Profile> {
  const profile = emptyProfile();
  for (const ask of asks) {
    const url = new URL(`${baseUrl}${ask.path}`);
    const res = await fetch(url, { headers: { 'x-api-key': TEST_KEY } });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    observe(
      profile,
      {
        operationId: ask.operationId,
        method: 'GET',
        path: url.pathname.slice(url.pathname.indexOf(BASE_PATH) + BASE_PATH.length),
        query: [...url.searchParams.entries()],
        status: res.status,
        headers: res.headers,
        body,
        undeclared: undeclaredPatterns(contract.operation(ask.operationId), res.status, body),
      },
      { secrets: [TEST_KEY] },
    );
  }
  return profile;
}

/** The list requests the ledger tests need: default page, a full page, and two pages by offset. */
export function listAsks(operationId: string, path: string): Ask[] {
  return [
    { operationId, path },
    { operationId, path: `${path}?limit=100` },
    { operationId, path: `${path}?offset=1` },
    { operationId, path: `${path}?offset=2` },
  ];
}
