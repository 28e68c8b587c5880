/**
 * @module bench/mock-child
 * The mock under test, alone in its process: starts on an ephemeral port with the given seed and
 * size, tells the orchestrator its URL and what the scenarios need, read from the running mock
 * (its `GET /examples.json`, and its dataset for the 200 cross-reference numbers and a
 * three-filter search), then answers memory questions until it is told to stop.
 * Usage (forked by bench/run.ts and bench/soak.ts): `node --import tsx bench/mock-child.ts <size> [seed] [state URL]`,
 * size a scale factor or `live`; a state URL (redis://...) keeps the mock's state in Redis (bench/state-store.ts).
 */
import { randomUUID } from 'node:crypto';
import { startMockServer, type ListenOptions } from '../src/server/listen.js';
import { searchBody, type Examples, type SearchExample } from '../src/server/examples.js';
import type { Dataset } from '../src/dataset/dataset.js';
import { serveParent } from './ipc.js';
import { LIVE_SIZE, type MockInfo, type Size } from './scenarios.js';
import { BENCH_KEY } from './startup.js';

/** The cross-reference scenario asks about this many numbers: the documented maximum. */
export const CROSS_REFERENCE_BATCH = 200;
/** The parametric search scenario's filter count. */
const SEARCH_FILTERS = 3;

/** The mock's `scale` option: a factor, or `live` (the live catalogue's counts) where the mock has it. */
type ScaleOption = NonNullable<ListenOptions['scale']>;

/** Startup options for a bench size (`live` is passed through; a mock without it fails to start, and the run reports that size as not run). */
function sizeOptions(size: Size): { scale: ScaleOption } {
  return { scale: (size === LIVE_SIZE ? LIVE_SIZE : Number(size)) as ScaleOption };
}

/** The 200 numbers of the cross-reference scenario, padded with unknown ones when the dataset knows fewer. */
function crossReferenceNumbers(dataset: Dataset): string[] {
  const known = dataset.competitorPartNumbers.slice(0, CROSS_REFERENCE_BATCH);
  return [
    ...known,
    ...Array.from({ length: CROSS_REFERENCE_BATCH - known.length }, (_, k) => `BENCH-UNKNOWN-${k}`),
  ];
}

/**
 * A search on three attributes of one part, each asking for that part's own value, so at least
 * that part matches. The request body is the document's, built by the examples module; the
 * three one-filter bodies are merged by joining their lists (the filters).
 */
function threeFilterSearch(dataset: Dataset): unknown {
  const { products, productParts, attributes } = dataset;
  for (let p = 0; p < products.size; p++) {
    for (const k of dataset.partsOfProduct(p)) {
      const plain: Omit<SearchExample, 'body'>[] = [];
      for (const parametric of productParts.record(k).parametricAttributes ?? []) {
        const at = attributes.indexOf(parametric.productPartAttributeId);
        const value = parametric.attributeValues[0] as number | string | boolean | undefined;
        if (at === undefined || value === undefined) continue;
        const { operators } = dataset.attributeSearchRule(at);
        const operator = operators.includes('eq')
          ? 'eq'
          : operators.includes('gte')
            ? 'gte'
            : undefined;
        if (!operator) continue;
        const attributeName =
          attributes.record(at).attributeName ?? parametric.productPartAttributeId;
        plain.push({
          productId: products.id(p),
          productPartAttributeId: parametric.productPartAttributeId,
          attributeName,
          operator,
          values: [value],
        });
        if (plain.length === SEARCH_FILTERS) return mergeBodies(plain.map(searchBody));
      }
    }
  }
  throw new Error(`no part has ${SEARCH_FILTERS} searchable parametric values`);
}

/** The example cross-reference body with its list of numbers (whatever the document names it) replaced by ours. */
function withNumbers(example: unknown, numbers: string[]): unknown {
  const body = { ...(example as Record<string, unknown>) };
  const lists = Object.keys(body).filter((name) => Array.isArray(body[name]));
  if (lists.length !== 1)
    throw new Error(
      `the cross-reference example body has ${lists.length} lists, expected one: ${JSON.stringify(example)}`,
    );
  body[lists[0]] = numbers;
  return body;
}

/** One body from several: arrays joined, everything else from the first. */
function mergeBodies(bodies: unknown[]): unknown {
  const [first, ...rest] = bodies as Record<string, unknown>[];
  const merged: Record<string, unknown> = { ...first };
  for (const body of rest)
    for (const [name, value] of Object.entries(body))
      if (Array.isArray(value) && Array.isArray(merged[name]))
        merged[name] = [...(merged[name] as unknown[]), ...(value as unknown[])];
  return merged;
}

/** The bench mock's admin token: loopback only, never in a report. */
const BENCH_ADMIN_TOKEN = randomUUID();

/** A scope of the bench's own key's purpose (`loadTest`: limits that never trip), and its key. */
async function scopeKeyOf(origin: string): Promise<string> {
  const made = await fetch(`${origin}/__mock/scopes`, {
    method: 'POST',
    headers: { 'x-mock-admin-token': BENCH_ADMIN_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ purpose: 'loadTest' }),
  });
  if (made.status !== 201) throw new Error(`POST /__mock/scopes answered ${made.status}`);
  return ((await made.json()) as { apiKey: string }).apiKey;
}

const send = serveParent();
const [sizeArg = '1', seedArg = '1', stateArg] = process.argv.slice(2);

try {
  const running = await startMockServer({
    port: 0,
    ...sizeOptions(sizeArg),
    seed: Number(seedArg),
    validateResponses: false,
    stateUrl: stateArg,
    // Controls on, as a mock shared by a test run has them: the scoped scenario needs a scope.
    adminToken: BENCH_ADMIN_TOKEN,
    // A week: a full bench reaches the scoped scenario long after the scope is made.
    scopeTtlSeconds: 604_800,
  });
  const { dataset } = running.app.state.apis[0];
  const examples = (await (
    await fetch(`${running.origin}/examples.json`, { headers: { 'x-api-key': BENCH_KEY } })
  ).json()) as Examples;
  const partWithHash = examples.ids.productParts.find((id) => id.includes('#'));
  const toolWithSpaces = examples.ids.softwareTools.find((id) => id.includes(' '));
  if (!partWithHash || !toolWithSpaces)
    throw new Error(
      `the examples name no part id with "#" or no tool id with a space: ${JSON.stringify(examples.ids)}`,
    );
  const info: MockInfo = {
    size: sizeArg,
    products: dataset.products.size,
    parts: dataset.productParts.size,
    documents: dataset.documents.size,
    boardsKits: dataset.boardsKits.size,
    partWithHash,
    toolWithSpaces,
    crossReferenceBody: withNumbers(
      examples.operations.crossReferenceProductParts.body,
      crossReferenceNumbers(dataset),
    ),
    searchBody: threeFilterSearch(dataset),
    scopeKey: await scopeKeyOf(running.origin),
  };
  // Building the dataset leaves a heap of garbage; with --expose-gc (bench/run.ts passes it) it is
  // collected now, so a size's first scenario measures serving, not the tail of the startup.
  (globalThis as { gc?: () => void }).gc?.();
  send({ type: 'ready', url: running.url, info: info as unknown as Record<string, unknown> });
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  send({ type: 'failed', message: (error as Error).stack ?? String(error) });
  process.exit(1);
}
