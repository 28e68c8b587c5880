/**
 * @module named-types.test
 * The generated named types: the committed file is what the document gives today, and a schema,
 * release or error body added to the document shows up in what `npm run types:gen` writes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SPEC_PATH } from '../../scripts/check-types-fresh.js';
import { checkNamedTypesFresh, renderNamedTypes } from '../../scripts/named-types.js';

const spec = readFileSync(SPEC_PATH, 'utf8');

describe('named types (npm run types:gen)', () => {
  it('the committed file matches the committed document', async () => {
    expect(await checkNamedTypesFresh()).toBeUndefined();
  });

  it('a new schema and a new release get their exports', async () => {
    const edited = spec
      .replace(
        '  schemas:\n',
        '  schemas:\n    Widget:\n      x-source: inferred\n      type: object\n',
      )
      .replace(
        '  x-changelog:\n',
        '  x-changelog:\n    - release: 9.9.9\n      changes: widgets\n',
      );
    const text = await renderNamedTypes(edited);
    expect(text).toContain("export type Widget = components['schemas']['Widget'];");
    expect(text).toMatch(/export type Release =\s*'9\.9\.9' \| 'unreleased'/);
  });

  it('the error bodies are the schemas of the 4xx and 5xx responses', async () => {
    const text = await renderNamedTypes(spec);
    const union = /export type ErrorBody =([^;]*);/.exec(text)![1];
    expect(union).toContain('RateLimitError');
    expect(union).toContain('BadRequestError');
    expect(union).not.toContain('Product');
  });

  it('a schema name that is no type name is refused, naming it', async () => {
    const edited = spec.replace('  schemas:\n', '  schemas:\n    Bad-Name:\n      type: object\n');
    await expect(renderNamedTypes(edited)).rejects.toThrow(/components\.schemas\.Bad-Name/);
  });
});
