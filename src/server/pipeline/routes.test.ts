import { describe, expect, it } from 'vitest';
import { decodePathParameters, loadContract } from '../../contract/index.js';
import { byPathSpecificity, methodsByPath } from './routes.js';

describe('routes', async () => {
  const contract = await loadContract({ release: 'unreleased' });

  it('puts literal segments before templated ones at the first difference', () => {
    const paths = byPathSpecificity(contract.operations).map((g) => g.path);
    const before = (a: string, b: string) =>
      expect(paths.indexOf(a)).toBeLessThan(paths.indexOf(b));
    before('/product-parts/attributes', '/product-parts/{orderable_id}');
    before('/product-parts/search', '/product-parts/{orderable_id}');
    before('/documents/types', '/documents/{dcp_id}');
    before('/documents/agile-id/{agile_id}', '/documents/{dcp_id}');
    before('/product-parts/attributes/{productPartAttributeId}', '/product-parts/{orderable_id}');
  });

  it('decodes path parameters strictly from the raw path', () => {
    expect(
      decodePathParameters('/product-parts/{orderable_id}', '/product-parts/LT1%23PBF').params,
    ).toEqual({ orderable_id: 'LT1#PBF' });
    expect(
      decodePathParameters(
        '/software-tools/{software_tool_id}',
        '/software-tools/Power%20Studio%20%26%20More',
      ).params,
    ).toEqual({ software_tool_id: 'Power Studio & More' });
    expect(
      decodePathParameters('/products/{product_id}', '/products/%E0%A4').problems[0],
    ).toMatchObject({ in: 'path', name: 'product_id' });
  });

  it('knows the methods of a path, for 405', () => {
    const methods = methodsByPath(contract.operations);
    expect(methods('/products')).toEqual(['GET', 'HEAD']);
    expect(methods('/product-parts/search')).toEqual(['POST']);
    expect(methods('/documents/download/X1')).toEqual(['GET', 'HEAD']);
    expect(methods('/nothing/here')).toEqual([]);
  });
});
