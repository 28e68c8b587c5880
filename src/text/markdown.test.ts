/**
 * @module text/markdown.test
 * Any string through the escapers yields no Markdown structure of its own: only escaped
 * punctuation and plain characters on one line (inline), or a code span no backtick run of the
 * text can close.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeSpan, escapeMarkdownInline } from './markdown.js';

/** Strings rich in what Markdown reacts to, and any string at all. */
const hostile = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'#>-*_`[]()!<>|&\\\n\r\t =+.:/@~www'.split('')) }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
);

/** Every ASCII punctuation character appears only escaped; nothing breaks the line. */
const INERT = /^(?:[^\x00-\x1f\x7f\u0085\u2028\u2029!-/:-@[-`{-~]|\\[!-/:-@[-`{-~])*$/u;

describe('escapeMarkdownInline', () => {
  it('leaves only escaped punctuation and plain characters, on one line', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(escapeMarkdownInline(s)).toMatch(INERT);
      }),
    );
  });

  it('keeps every character, and shows a line break or a control character as its \\u escape', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const unescaped = escapeMarkdownInline(s).replace(/\\([!-/:-@[-`{-~])/g, '$1');
        if (!/[\x00-\x1f\x7f-\x9f\u2028\u2029]/.test(s)) expect(unescaped).toBe(s);
      }),
    );
  });

  it('turns the classic injections into text', () => {
    expect(escapeMarkdownInline('# x\n![i](http://e/x.png)<img src=x>|a|')).toBe(
      '\\# x\\\\u000a\\!\\[i\\]\\(http\\:\\/\\/e\\/x\\.png\\)\\<img src\\=x\\>\\|a\\|',
    );
  });
});

describe('codeSpan', () => {
  it('no backtick run inside is as long as the fence, and nothing breaks the line', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const span = codeSpan(s);
        const fence = /^`+/.exec(span)![0];
        expect(span.endsWith(fence)).toBe(true);
        const inner = span.slice(fence.length, span.length - fence.length);
        expect(inner).not.toMatch(/[\n\r\u2028\u2029]/);
        for (const run of inner.match(/`+/g) ?? []) expect(run.length).not.toBe(fence.length);
        // Content touching the fence would merge with it: a space keeps them apart.
        expect(inner.startsWith('`') || inner.endsWith('`')).toBe(false);
      }),
    );
  });

  it('shows the text verbatim', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('```\n# h')).toBe('```` ```\\u000a# h ````');
  });
});
