/**
 * @module contract/release-view.test
 * What a release's document lets a body hold: declared fields (a sort key's field included) and
 * links to the operations the release has, read from `x-since` alone.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from './load.js';
import { createReleaseView, deadLinkTest, declaresField, listItemSchema } from './release-view.js';

const BASE = 'http://mock.test/web-data/v1';
const at = async (release: string) => loadContract({ release });

async function partSchema(release: string) {
  const schema = listItemSchema((await at(release)).operation('listProductParts'));
  if (!schema) throw new Error('listProductParts has no record schema');
  return schema;
}

describe('declaresField', () => {
  it('follows dotted paths through $ref targets, and knows when a field arrives', async () => {
    expect(declaresField(await partSchema('1.1.1'), 'orderableId')).toBe(true);
    expect(declaresField(await partSchema('1.1.1'), 'distiInventory.updated')).toBe(false);
    expect(declaresField(await partSchema('1.2.0'), 'distiInventory.updated')).toBe(true);
    expect(declaresField(await partSchema('1.2.0'), 'distiInventory.nowhere')).toBe(false);
  });

  it('goes through array items', async () => {
    expect(declaresField(await partSchema('1.0.0'), 'parametricAttributes.attributeName')).toBe(
      true,
    );
    expect(declaresField(await partSchema('1.0.0'), 'parametricAttributes.href')).toBe(false);
    expect(declaresField(await partSchema('1.3.0'), 'parametricAttributes.href')).toBe(true);
  });
});

describe('deadLinkTest', () => {
  it('a link is dead when no GET operation of the release answers its path', async () => {
    const old = deadLinkTest((await at('1.0.0')).operations, BASE);
    const newer = deadLinkTest((await at('1.3.0')).operations, BASE);
    for (const link of ['/packages/05-08-4917', '/product-parts/attributes/cmti', '/products/X'])
      expect([link, old(link), newer(link)]).toEqual([link, true, false]);
    expect(old('/product-parts/ADA2953%23PBF')).toBe(false);
    // Absolute on the base URL, with a query: the path decides.
    expect(old(`${BASE}/products/X?x=1`)).toBe(true);
    expect(old(`${BASE}/product-parts/X?x=1`)).toBe(false);
  });

  it('a string that is not an API path is no link', async () => {
    const old = deadLinkTest((await at('1.0.0')).operations, BASE);
    for (const value of ['https://www.example.com/products/X', 'Production', '', 'products/X'])
      expect(old(value)).toBe(false);
  });
});

describe('createReleaseView', () => {
  it('drops the properties and the links the release lacks, and nothing else', async () => {
    const schema = await partSchema('1.0.0');
    const view = createReleaseView(schema, deadLinkTest((await at('1.0.0')).operations, BASE));
    const record = {
      orderableId: 'A#1',
      BOPN: 'A',
      genericId: 'A',
      genericUrl: '/products/A',
      featuredDocument: { documentTitle: 'T', documentUrl: '/documents/D1' },
      distiInventory: { quantity: 1 },
      packaging: { package: { packageCode: 'P', href: '/packages/P' }, packageUrl: '/packages/P' },
      parametricAttributes: [{ productPartAttributeId: 'a', href: '/product-parts/attributes/a' }],
      images: ['https://www.example.com/a.jpg'],
    };
    expect(view(record)).toEqual({
      orderableId: 'A#1',
      genericId: 'A',
      featuredDocument: { documentTitle: 'T' },
      packaging: { package: { packageCode: 'P' } },
      parametricAttributes: [{ productPartAttributeId: 'a' }],
      images: ['https://www.example.com/a.jpg'],
    });
  });

  it('drops a link its schema declares when the release lacks the operation it names', async () => {
    const view = createReleaseView(
      await partSchema('1.3.0'),
      deadLinkTest((await at('1.1.0')).operations, BASE),
    );
    expect(
      view({
        orderableId: 'A',
        genericUrl: `${BASE}/products/A`,
        packaging: { packageUrl: '/packages/P' },
        parametricAttributes: [{ href: '/product-parts/attributes/a', attributeName: 'a' }],
      }),
    ).toEqual({
      orderableId: 'A',
      packaging: { packageUrl: '/packages/P' },
      parametricAttributes: [{ attributeName: 'a' }],
    });
  });
});

describe('the document at every release', () => {
  it('has no list filter reading a field that arrives in a later release (the filter carries x-since)', async () => {
    const newest = await at('unreleased');
    const late: string[] = [];
    for (const release of newest.releases) {
      for (const op of (await at(release)).operations) {
        const schema = listItemSchema(op);
        const today = listItemSchema(newest.operation(op.operationId));
        if (!schema || !today) continue;
        for (const p of op.parameters) {
          // A field no release declares is derived by the family (documents' `productId`).
          if (
            p.filter &&
            declaresField(today, p.filter.field) &&
            !declaresField(schema, p.filter.field)
          )
            late.push(`${release} ${op.operationId} ${p.name} -> ${p.filter.field}`);
        }
      }
    }
    expect(late).toEqual([]);
  });
});
