/**
 * @module types-fresh.test
 * The stale-types check itself: it must pass on the committed pair and catch a spec edit that was
 * not followed by `npm run types:gen`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkTypesFresh,
  firstDifference,
  generateTypes,
  SPEC_PATH,
  TYPES_PATH,
} from '../../scripts/check-types-fresh.js';

describe('types:check', () => {
  it('the committed types match the committed spec', async () => {
    expect(await checkTypesFresh()).toBeUndefined();
  });

  it('an edited spec generates different types, and the difference is located', async () => {
    const edited = readFileSync(SPEC_PATH, 'utf8').replace(
      '        title: { type: string, description: Title of the product page. }\n',
      '        title: { type: string, description: Title of the product page. }\n        subtitle: { type: string }\n',
    );
    const generated = await generateTypes(edited);
    const diff = firstDifference(generated, readFileSync(TYPES_PATH, 'utf8'));
    expect(diff?.expected?.trim()).toBe('subtitle?: string;');
  });

  it('firstDifference reports the first differing line, including a missing tail', () => {
    expect(firstDifference('a\nb', 'a\nb')).toBeUndefined();
    expect(firstDifference('a\nb\nc', 'a\nx\nc')).toEqual({ line: 2, expected: 'b', actual: 'x' });
    expect(firstDifference('a\nb', 'a')).toEqual({ line: 2, expected: 'b', actual: undefined });
  });
});
