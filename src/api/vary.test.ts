/**
 * @module api/vary.test
 * `startMock({ vary: { seed } })` over a real socket, seen from client code: a deliberately brittle
 * client (one that assumes a field is always there, one that refuses fields its model does not
 * name) fails, and the pointer its failure names is one `x-mock-variation` lists; a tolerant client
 * reads every seed's answers; the option is checked when given.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { parseVariationHeader, VARIATION_HEADER } from '../server/vary/header.js';
import { createMockApp, startMock } from './mock.js';
import type { RunningMock } from './types.js';

const SEEDS = [1, 2, 3];
const mocks = new Map<number, RunningMock>();
for (const seed of SEEDS) mocks.set(seed, await startMock({ vary: { seed } }));
afterAll(() => Promise.all([...mocks.values()].map((m) => m.close())));

type Json = Record<string, unknown>;

/** The product fields the brittle client's model names: the document's, as a code generator would write them. */
const { document } = await loadContract();
const productSchema = document.components!.schemas!.Product as {
  allOf: { properties?: Record<string, unknown> }[];
};
const MODEL_FIELDS = new Set(
  productSchema.allOf.flatMap((part) => Object.keys(part.properties ?? {})),
);

async function productPage(
  mock: RunningMock,
): Promise<{ body: { data: Json[] }; variation: string }> {
  const res = await fetch(`${mock.url}/products?limit=20`, {
    headers: { 'x-api-key': mock.keys.fullAccess },
  });
  expect(res.status).toBe(200);
  return {
    body: (await res.json()) as { data: Json[] },
    variation: res.headers.get(VARIATION_HEADER) ?? '',
  };
}

/** Assumes every product has a title, a description and images, as the dataset always has. */
function brittleCard(products: Json[]): string[] {
  return products.map((p, i) => {
    for (const field of ['title', 'description', 'images'])
      if (p[field] === undefined || p[field] === null)
        throw new Error(`/data/${i}/${field}: expected a value, got ${String(p[field])}`);
    const images = p.images as string[];
    if (images.length === 0) throw new Error(`/data/${i}/images: expected at least one image`);
    return `${String(p.title)}: ${images[0]}`;
  });
}

/** Refuses any field its model does not name (a "strict" decoder). */
function closedDecoder(products: Json[]): void {
  products.forEach((p, i) => {
    for (const key of Object.keys(p))
      if (!MODEL_FIELDS.has(key)) throw new Error(`/data/${i}/${key}: unknown field`);
  });
}

/** Reads what it needs, with a default for what may be missing, and ignores the rest. */
function tolerantCard(products: Json[]): string[] {
  return products.map((p) => {
    const images = Array.isArray(p.images) ? (p.images as unknown[]) : [];
    const title = typeof p.title === 'string' && p.title !== '' ? p.title : String(p.productId);
    return `${title}: ${typeof images[0] === 'string' ? images[0] : '(no image)'}`;
  });
}

/** The pointer a client's failure names. */
function pointerOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message.split(':')[0];
  }
  throw new Error('the client did not fail');
}

describe('startMock({ vary }) against client code', () => {
  it.each(SEEDS)(
    'a client that assumes a field is always there fails, naming a varied pointer (seed %i)',
    async (seed) => {
      const { body, variation } = await productPage(mocks.get(seed)!);
      const pointer = pointerOf(() => brittleCard(body.data));
      const edit = parseVariationHeader(variation).edits.find((e) => e.pointer === pointer);
      expect(edit, `${pointer} in ${variation}`).toBeDefined();
      expect(['absent', 'null', 'empty']).toContain(edit!.kind);
    },
  );

  it.each(SEEDS)(
    'a client that refuses undeclared fields fails, naming a varied pointer (seed %i)',
    async (seed) => {
      const { body, variation } = await productPage(mocks.get(seed)!);
      const pointer = pointerOf(() => closedDecoder(body.data));
      expect(parseVariationHeader(variation).edits).toContainEqual({ kind: 'undeclared', pointer });
    },
  );

  it.each(SEEDS)('a tolerant client reads every product (seed %i)', async (seed) => {
    const { body } = await productPage(mocks.get(seed)!);
    expect(tolerantCard(body.data)).toHaveLength(body.data.length);
  });

  it('the same request answers the same bytes; another seed, others', async () => {
    const once = await fetch(`${mocks.get(1)!.url}/products?limit=20`, {
      headers: { 'x-api-key': mocks.get(1)!.keys.fullAccess },
    }).then((r) => r.text());
    const again = await fetch(`${mocks.get(1)!.url}/products?limit=20`, {
      headers: { 'x-api-key': mocks.get(1)!.keys.fullAccess },
    }).then((r) => r.text());
    const other = JSON.stringify((await productPage(mocks.get(2)!)).body);
    expect(again).toBe(once);
    expect(other).not.toBe(JSON.stringify(JSON.parse(once)));
  });

  it('varies in process too (createMockApp), as on a socket', async () => {
    const app = await createMockApp({ vary: { seed: 1 } });
    const res = await app.fetch(
      new Request(`${app.url}/products?limit=20`, {
        headers: { 'x-api-key': app.keys.fullAccess },
      }),
    );
    const socket = await productPage(mocks.get(1)!);
    // The same seed and request: the same edits (the hrefs name each mock's own origin).
    expect(res.headers.get(VARIATION_HEADER)).toBe(socket.variation);
  });

  it.each([[-1], [1.5], ['1'], [2 ** 32], [null]])(
    'refuses vary.seed %j, naming it',
    async (seed) => {
      await expect(startMock({ vary: { seed: seed as number } })).rejects.toThrow(
        /^vary\.seed must be an integer from 0 to 4294967295/,
      );
    },
  );
});

describe('a stub under --vary', () => {
  it("answers as the test asked: a stub's answer is not varied, the dataset's beside it is", async () => {
    const mock = await createMockApp({ vary: { seed: 1 } });
    const headers = { 'x-api-key': mock.keys.fullAccess };
    const get = (path: string) => mock.fetch(new Request(`${mock.url}${path}`, { headers }));
    const page = (await (await get('/packages?limit=1')).json()) as { data: Json[] };
    const id = String(page.data[0].packageCode);
    await mock.qa.stub({
      operationId: 'getPackage',
      match: { params: { package_code: id } },
      respond: { status: 404, body: { error: 'gone, for this test' } },
    });
    const stubbed = await get(`/packages/${encodeURIComponent(id)}`);
    expect(stubbed.status).toBe(404);
    expect(stubbed.headers.get(VARIATION_HEADER)).toBeNull();
    expect(await stubbed.json()).toEqual({ error: 'gone, for this test' });
    expect((await get('/packages?limit=1')).headers.get(VARIATION_HEADER)).toMatch(/^seed=1;/);
  });
});
