import { describe, expect, it } from 'vitest';
import { call, testApp } from '../testing.js';

describe('POST /product-parts/search', async () => {
  const app = await testApp();
  const attributes = (await call(app, '/product-parts/attributes?limit=1000')).body.data as { productPartAttributeId: string; dataType: string; operators: string[] }[];
  const numeric = attributes.find((a) => a.dataType === 'number' && a.operators.includes('range'))!;
  // A product whose parts carry the numeric attribute.
  const parts = (await call(app, '/product-parts?limit=1000')).body.data as { productId: string; parametrics: { productPartAttributeId: string; value: unknown }[] }[];
  const carrier = parts.find((p) => p.parametrics.some((v) => v.productPartAttributeId === numeric.productPartAttributeId))!;
  const values = parts
    .filter((p) => p.productId === carrier.productId)
    .flatMap((p) => p.parametrics.filter((v) => v.productPartAttributeId === numeric.productPartAttributeId).map((v) => v.value as number))
    .sort((a, b) => a - b);

  it('returns exactly the parts whose values satisfy every filter', async () => {
    const [min, max] = [values[0], values[Math.floor(values.length / 2)]];
    const res = await call(app, '/product-parts/search', { body: { productId: carrier.productId, filters: [{ attribute: numeric.productPartAttributeId, operator: 'range', value: [min, max] }], limit: 1000 } });
    expect(res.status).toBe(200);
    const found = res.body.data.map((p: { parametrics: { productPartAttributeId: string; value: number }[] }) => p.parametrics.find((v) => v.productPartAttributeId === numeric.productPartAttributeId)!.value);
    expect(found.every((v: number) => v >= min && v <= max)).toBe(true);
    expect(res.body.pagination.total).toBe(values.filter((v) => v >= min && v <= max).length);
    const gt = await call(app, '/product-parts/search', { body: { productId: carrier.productId, filters: [{ attribute: numeric.productPartAttributeId, operator: 'gt', value: max }] } });
    expect(gt.body.pagination.total).toBe(values.filter((v) => v > max).length);
  });
  it.each([
    [{ attribute: 'NO-SUCH-ATTRIBUTE', operator: 'eq', value: 1 }, '/filters/0/attribute'],
    [{ attribute: 'ATTR', operator: 'near', value: 1 }, '/filters/0/operator'],
    [{ attribute: 'ATTR', operator: 'gt', value: 'high' }, '/filters/0/value'],
    [{ attribute: 'ATTR', operator: 'range', value: 3 }, '/filters/0/value'],
  ])('refuses %j with a 400 naming %s', async (filter, pointer) => {
    const body = { productId: carrier.productId, filters: [{ ...filter, attribute: filter.attribute === 'ATTR' ? numeric.productPartAttributeId : filter.attribute }] };
    const res = await call(app, '/product-parts/search', { body });
    expect(res.status).toBe(400);
    expect(res.body.details[0].name).toBe(pointer);
  });
  it('refuses an unknown product with a 400 naming /productId', async () => {
    const res = await call(app, '/product-parts/search', { body: { productId: 'NO-SUCH-PRODUCT', filters: [] } });
    expect(res).toMatchObject({ status: 400, body: { details: [{ name: '/productId' }] } });
  });
});

describe('POST /product-parts/cross-reference', async () => {
  const app = await testApp();
  it('answers known numbers with matches and unknown ones with an empty match, in request order', async () => {
    const known = app.state.apis[0].dataset.competitorPartNumbers.slice(0, 199);
    const res = await call(app, '/product-parts/cross-reference', { body: { partNumbers: [...known, 'UNKNOWN-123'] } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { competitorPartNumber: string }) => r.competitorPartNumber)).toEqual([...known, 'UNKNOWN-123']);
    expect(res.body.data[0].matches.length).toBeGreaterThan(0);
    expect(res.body.data.at(-1)).toEqual({ competitorPartNumber: 'UNKNOWN-123', competitorManufacturer: null, matches: [] });
    const types = new Set(res.body.data.flatMap((r: { matches: { matchType: string }[] }) => r.matches.map((m) => m.matchType)));
    expect([...types].sort()).toEqual(['Drop-in', 'Footprint', 'Functional']);
  });
});
