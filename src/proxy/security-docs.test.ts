/**
 * @module proxy/security-docs.test
 * docs/proxy-security.md shows the lists the proxy and the recorder apply; this keeps each shown
 * copy equal to its module (the module is the one place a list is changed).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PERSONAL_NAME_PARTS,
  PERSONAL_NAME_WORDS,
  PERSONAL_VALUE_KINDS,
} from '../recordings/index.js';
import { FORWARDED_REQUEST_HEADERS } from './headers.js';

const PAGE = 'docs/proxy-security.md';
const page = readFileSync(new URL(`../../${PAGE}`, import.meta.url), 'utf8');

const names = (list: readonly string[]) => list.map((n) => `\`${n}\``).join(', ');

describe(PAGE, () => {
  it.each([
    ['forwarded-request-headers', names(FORWARDED_REQUEST_HEADERS)],
    ['personal-name-parts', names(PERSONAL_NAME_PARTS)],
    ['personal-name-words', names(PERSONAL_NAME_WORDS)],
    ['personal-value-kinds', PERSONAL_VALUE_KINDS.map((k) => k.kind).join('; ')],
  ])('shows the list %s as its module holds it', (marker, rendered) => {
    const shown = new RegExp(`<!-- ${marker} -->\\n([^]*?)\\n<!-- /${marker} -->`).exec(page);
    expect(shown, `${PAGE} has no <!-- ${marker} --> block`).not.toBeNull();
    expect(shown![1], `replace the ${marker} block in ${PAGE} with this line`).toBe(rendered);
  });
});
