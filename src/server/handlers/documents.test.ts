import { describe, expect, it } from 'vitest';
import { call, sharedDataset, testApp } from '../../testing/mock-app.js';

describe('document download (unreleased)', async () => {
  const app = await testApp({ apiVersion: 'unreleased' });
  const docs = (await call(app, '/documents?limit=100')).body.data as {
    dcpDocumentId: string | null;
    fileType: string;
    filename: string;
  }[];
  const pdf = docs.find((d) => d.dcpDocumentId && d.fileType === 'PDF')!;

  it('GET returns the file bytes with type, length and disposition; HEAD the same headers and no body', async () => {
    const get = await app.request(
      `http://mock.test/web-data/v1/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`,
      { headers: { 'x-api-key': 'demo-unlimited-key' } },
    );
    const bytes = new Uint8Array(await get.arrayBuffer());
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/pdf');
    expect(Number(get.headers.get('content-length'))).toBe(bytes.length);
    expect(get.headers.get('content-disposition')).toContain(`filename="${pdf.filename}"`);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const head = await app.request(
      `http://mock.test/web-data/v1/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`,
      { method: 'HEAD', headers: { 'x-api-key': 'demo-unlimited-key' } },
    );
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    for (const h of ['content-type', 'content-length', 'content-disposition'])
      expect(head.headers.get(h)).toBe(get.headers.get(h));
  });
  it('404s an unknown document, and is not served by a released version', async () => {
    expect((await call(app, '/documents/download/NOPE')).status).toBe(404);
    const released = await testApp();
    expect(
      (await call(released, `/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`))
        .status,
    ).toBe(404);
  });
});

describe("GET /documents (the reference's parameters)", async () => {
  const dataset = sharedDataset();
  const app = await testApp();
  const docs = Array.from({ length: dataset.documents.size }, (_, i) =>
    dataset.documents.record(i),
  );
  const ids = (list: { agileId: string }[]) => list.map((d) => d.agileId).sort();
  /** Every document the list answers for a query: `offset` counts items here, so pages step by 100. */
  async function listAll(query: string): Promise<{ agileId: string }[]> {
    const all: { agileId: string }[] = [];
    for (let offset = 0; ; offset += 100) {
      const res = await call(
        app,
        `/documents?${[query, `limit=100&offset=${offset}`].filter(Boolean).join('&')}`,
      );
      expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
      expect(res.body.pagination.offset).toBe(offset);
      all.push(...res.body.data);
      if (!res.body.pagination.has_more) return all;
    }
  }

  it('offset counts items, not pages: offset=3&limit=2 holds the 4th and 5th documents', async () => {
    const first = (await call(app, '/documents?limit=5')).body.data.map(
      (d: { agileId: string }) => d.agileId,
    );
    const page = (await call(app, '/documents?limit=2&offset=3')).body;
    expect(page.pagination).toEqual({ offset: 3, limit: 2, total: docs.length, has_more: true });
    expect(page.data.map((d: { agileId: string }) => d.agileId)).toEqual(first.slice(3, 5));
    expect(ids(await listAll(''))).toEqual(ids(docs));
  });

  it("language takes the reference's three codes and selects exactly their documents", async () => {
    for (const language of ['en', 'ja', 'zh-hans']) {
      const want = docs.filter((d) => d.language === language);
      expect(want.length, language).toBeGreaterThan(0);
      expect(ids(await listAll(`language=${language}`))).toEqual(ids(want));
    }
  });

  it('dcpDocumentIdStartsWith matches the start of the DCP id, in any letter case', async () => {
    const prefix = docs[0].dcpDocumentId.slice(0, 3);
    const want = docs.filter((d) => d.dcpDocumentId.toLowerCase().startsWith(prefix.toLowerCase()));
    expect(want.length).toBeGreaterThan(1);
    expect(want.length).toBeLessThan(docs.length);
    expect(
      ids(await listAll(`dcpDocumentIdStartsWith=${encodeURIComponent(prefix.toLowerCase())}`)),
    ).toEqual(ids(want));
  });

  it('documentRevisionDateStart and documentRevisionDateEnd are an inclusive window on revisionDate', async () => {
    const dates = [...new Set(docs.map((d) => d.revisionDate))].sort();
    const [start, end] = [
      dates[Math.floor(dates.length / 4)],
      dates[Math.floor((3 * dates.length) / 4)],
    ];
    const want = docs.filter((d) => d.revisionDate >= start && d.revisionDate <= end);
    expect(
      ids(await listAll(`documentRevisionDateStart=${start}&documentRevisionDateEnd=${end}`)),
    ).toEqual(ids(want));
    // Both ends are inclusive: a one-day window finds that day's documents.
    expect(
      ids(await listAll(`documentRevisionDateStart=${start}&documentRevisionDateEnd=${start}`)),
    ).toEqual(ids(docs.filter((d) => d.revisionDate === start)));
  });

  it('productId, type, subType and category select exactly their documents, and combine with AND', async () => {
    const doc = docs.find((d) => d.product.length > 0 && d.category.length > 1)!;
    const product = doc.product[0].productId;
    expect(ids(await listAll(`productId=${encodeURIComponent(product)}`))).toEqual(
      ids(docs.filter((d) => d.product.some((p) => p.productId === product))),
    );
    expect(ids(await listAll(`type=${encodeURIComponent(doc.type)}`))).toEqual(
      ids(docs.filter((d) => d.type === doc.type)),
    );
    expect(ids(await listAll(`subType=${encodeURIComponent(doc.subType[0])}`))).toEqual(
      ids(docs.filter((d) => d.subType.includes(doc.subType[0]))),
    );
    const title = doc.category[1].title;
    expect(ids(await listAll(`category=${encodeURIComponent(title.toUpperCase())}`))).toEqual(
      ids(docs.filter((d) => d.category.some((c) => c.title === title))),
    );
    const both = docs.filter((d) => d.type === doc.type && d.language === 'en');
    expect(ids(await listAll(`type=${encodeURIComponent(doc.type)}&language=en`))).toEqual(
      ids(both),
    );
  });

  it("serves the reference's record: myrenesasDocument, subType as an array, the document's own href, flat categories", async () => {
    const doc = (await call(app, `/documents/${encodeURIComponent(docs[0].dcpDocumentId)}`)).body;
    expect(typeof doc.myrenesasDocument).toBe('boolean');
    expect(doc).not.toHaveProperty('myvendorDocument');
    expect(Array.isArray(doc.subType)).toBe(true);
    expect((await call(app, doc.href)).body.agileId).toBe(doc.agileId);
    expect(doc.category.every((c: unknown) => !Array.isArray(c))).toBe(true);
  });

  it('refuses the sort parameters the reference does not declare here', async () => {
    expect((await call(app, '/documents?order=title')).status).toBe(400);
  });
});
