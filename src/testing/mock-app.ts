/**
 * @module testing/mock-app
 * Helpers for the server's own tests: one dataset per seed shared between apps (building it is
 * the slow part), a request helper with the demo keys by name, and a validator that every test
 * response goes through.
 */
import { createValidators, loadContract, type Release } from '../contract/index.js';
import type { Dataset } from '../dataset/dataset.js';
import { generateDataset } from '../dataset/generate.js';
import { createApp, type MockApp } from '../server/app.js';
import { MemoryStores } from '../state/memory.js';
import type { AppOptions } from '../server/options.js';

export const DEMO = {
  production: 'demo-production-key',
  staging: 'demo-staging-key',
  expired: 'demo-expired-key',
  noDocuments: 'demo-no-documents-key',
  lowTier: 'demo-low-tier-key',
  unlimited: 'demo-unlimited-key',
} as const;

export const TEST_ORIGIN = 'http://mock.test';
const datasets = new Map<string, Dataset>();

export function sharedDataset(seed = 1, baseUrl = `${TEST_ORIGIN}/web-data/v1`): Dataset {
  const key = `${seed}|${baseUrl}`;
  let dataset = datasets.get(key);
  if (!dataset) datasets.set(key, (dataset = generateDataset({ seed, scale: 1, baseUrl })));
  return dataset;
}

/** An in-process app over the shared dataset, with response self-checks on. */
export function testApp(options: Partial<AppOptions> = {}): Promise<MockApp> {
  return createApp({
    origin: TEST_ORIGIN,
    validateResponses: true,
    datasets: { production: sharedDataset(options.seed ?? 1) },
    ...options,
  });
}

export interface CallOptions {
  key?: string | null;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the app in-process; `key` defaults to the unlimited demo key, `null` sends none. */
// Bodies are arbitrary JSON for the test to inspect; their shape is checked by the validators, not by the type system.
export async function call(
  app: MockApp,
  path: string,
  options: CallOptions = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the comment above
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? DEMO.unlimited : options.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = path.startsWith('http')
    ? path
    : `${TEST_ORIGIN}${path.startsWith('/web-data') || path.startsWith('/staging') || path.startsWith('/__') ? '' : '/web-data/v1'}${path}`;
  const res = await app.request(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Validators for a release, to check bodies in tests independently of the mock's own self-check. */
export async function validatorsFor(release: Release = 'unreleased') {
  const contract = await loadContract({ release });
  return { contract, validators: createValidators(contract) };
}

/**
 * The memory store's own parts (rate limiter, journal, clock, armed faults) of an app on the
 * default store, for tests that look inside synchronously; the app itself reads them through its
 * store only.
 */
export function memoryParts(app: MockApp): MemoryStores['parts'] {
  const { stores } = app.state;
  if (!(stores instanceof MemoryStores))
    throw new Error('memoryParts: the app is not on the memory store');
  return stores.parts;
}
