import { describe, expect, it } from 'vitest';
import { call, testApp } from '../testing.js';

describe('document download (unreleased)', async () => {
  const app = await testApp({ apiVersion: 'unreleased' });
  const docs = (await call(app, '/documents?limit=1000')).body.data as { dcpDocumentId: string | null; fileType: string; filename: string }[];
  const pdf = docs.find((d) => d.dcpDocumentId && d.fileType === 'PDF')!;

  it('GET returns the file bytes with type, length and disposition; HEAD the same headers and no body', async () => {
    const get = await app.request(`http://mock.test/web-data/v1/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`, { headers: { 'x-api-key': 'demo-unlimited-key' } });
    const bytes = new Uint8Array(await get.arrayBuffer());
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/pdf');
    expect(Number(get.headers.get('content-length'))).toBe(bytes.length);
    expect(get.headers.get('content-disposition')).toContain(`filename="${pdf.filename}"`);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const head = await app.request(`http://mock.test/web-data/v1/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`, { method: 'HEAD', headers: { 'x-api-key': 'demo-unlimited-key' } });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    for (const h of ['content-type', 'content-length', 'content-disposition']) expect(head.headers.get(h)).toBe(get.headers.get(h));
  });
  it('404s an unknown document, and is not served by a released version', async () => {
    expect((await call(app, '/documents/download/NOPE')).status).toBe(404);
    const released = await testApp();
    expect((await call(released, `/documents/download/${encodeURIComponent(pdf.dcpDocumentId!)}`)).status).toBe(404);
  });
});
