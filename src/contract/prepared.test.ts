/**
 * @module prepared.test
 * The prepared form of the document is what parsing gives, object sharing included, and is used
 * only for the very text it was prepared from.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, readSpecText } from './load.js';
import { decodePrepared, encodePrepared, parseDocument, PREPARED_FORMAT } from './prepared.js';

const text = readSpecText(DEFAULT_SPEC_PATH);

describe('the prepared document', () => {
  it('decodes to what parsing and dereferencing give, with the same objects shared', async () => {
    const parsed = await parseDocument(text);
    const prepared = encodePrepared(text, parsed);
    const decoded = decodePrepared(prepared, text)!;
    expect(decoded.source).toEqual(parsed.source);
    expect(decoded.dereferenced).toEqual(parsed.dereferenced);
    // Same sharing: re-encoding the decoded document gives the same text.
    expect(encodePrepared(text, decoded)).toBe(prepared);
    // And there is sharing to keep: one schema object serves several operations.
    expect(prepared).toContain('"$shared":');
  });

  it('keeps the identity of a shared schema', async () => {
    const decoded = decodePrepared(encodePrepared(text, await parseDocument(text)), text)!;
    const schemas = decoded.dereferenced.components!.schemas!;
    const paths = JSON.stringify(decoded.source.paths);
    const referenced = Object.keys(schemas).find((name) =>
      paths.includes(`"#/components/schemas/${name}"`),
    )!;
    expect(referenced).toBeDefined();
    const uses: unknown[] = [];
    const visit = (node: unknown, seen = new Set<unknown>()): void => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      if (node === schemas[referenced]) uses.push(node);
      for (const child of Object.values(node)) visit(child, seen);
    };
    visit(decoded.dereferenced.paths);
    expect(uses.length).toBeGreaterThan(0);
  });

  it('is ignored for any other text or format', async () => {
    const prepared = encodePrepared(text, await parseDocument(text));
    expect(decodePrepared(prepared, `${text}\n# edited\n`)).toBeUndefined();
    const otherFormat = prepared.replace(PREPARED_FORMAT, 'web-data-prepared/0');
    expect(decodePrepared(otherFormat, text)).toBeUndefined();
  });

  it('refuses a document with a key it reserves', () => {
    const document = { openapi: '3.1.0', paths: { '/x': { $shared: 1 } } } as never;
    expect(() => encodePrepared('', { source: document, dereferenced: document })).toThrow(
      /reserves/,
    );
  });
});
