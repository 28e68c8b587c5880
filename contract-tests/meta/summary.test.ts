/**
 * @module meta/summary.test
 * The summary as a pure function of the report: whatever strings a server put into the findings
 * (names, values, Markdown, newlines, fences) the rendered summary has the same structure as with
 * plain words; the roll-up counts by rule and operation in Maps, so names like `constructor` or
 * `__proto__` count like any other; the whole stays under GitHub's 1 MiB, cut at a section's end
 * with a pointer to the JSON report; and the release hint names the release the findings fit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFinding, type Finding } from '../../src/suite/support/findings.js';
import { releaseHint, type ReleaseShapes } from '../../src/suite/support/release-hint.js';
import type { ContractReport } from '../../src/suite/support/report.js';
import { rollUp } from '../../src/suite/support/rollup.js';
import { readOptions } from '../../src/suite/support/options.js';
import {
  renderSummary,
  SUMMARY_LIMIT_BYTES,
  verdictLine,
} from '../../src/suite/support/summary.js';

const JSON_FILE = '/reports/contract-report.json';

/** A finding whose every server-shaped string is `s`. */
function finding(s: string, extra: Partial<Finding> = {}): Finding {
  return {
    severity: 'failure',
    rule: s,
    operationId: s,
    method: 'GET',
    url: `http://t/web-data/v1/${s}`,
    status: 200,
    pointer: `/data/0/${s}`,
    expected: s,
    actual: s,
    message: s,
    curl: `curl '${s}'`,
    ...extra,
  };
}

/** A failing report carrying `s` everywhere a server could reach: findings of each kind, a skipped test. */
function reportOf(s: string, findings: Finding[] = []): ContractReport {
  const all = [
    finding(s),
    finding(s, { severity: 'warning' }),
    finding(s, { rule: 'not-run', severity: 'warning', notRun: { what: s, why: s } }),
    finding(s, { rule: `drift.${s}`, change: { then: s, now: s }, baseline: 'new' }),
    finding(s, { baseline: 'new' }),
    ...findings,
  ];
  return {
    target: 'http://t/web-data/v1',
    kind: 'live',
    release: '1.3.0',
    seed: 1,
    strict: false,
    durationMs: 1000,
    requests: 10,
    passed: false,
    tested: true,
    counts: { tests: 2, failedTests: 1, skipped: 1, failures: 3, warnings: 2, notRun: 1 },
    profile: 'profile.json',
    drift: { profile: '/last/profile.json', failures: 1, warnings: 0 },
    baseline: { file: '/last/contract-report.json', new: 2, known: 0, gone: 1 },
    causes: rollUp(all),
    releaseHint: {
      release: '1.1.0',
      alsoFits: [],
      unknownPaths: [s],
      laterFields: [{ name: s, since: '1.2.0' }],
    },
    tests: [
      { name: s, file: 'f', state: 'failed' },
      { name: s, file: 'f', state: 'skipped', skipped: s },
    ],
    findings: all,
    gone: [finding(s)],
    coverage: [{ operationId: 'listProducts', status: '200', state: 'exercised' }],
  };
}

/**
 * The structure a reader sees: per line, its kind (heading level, table row and its cell count,
 * list item, blank, paragraph). Cells are counted by the pipes no backslash escapes.
 */
function skeleton(markdown: string): string[] {
  return markdown.split('\n').map((line) => {
    if (line === '') return 'blank';
    const heading = /^(#{1,6}) /.exec(line);
    if (heading) return `h${heading[1].length}`;
    if (line.startsWith('|')) return `row ${line.replace(/\\\\|\\\|/g, '').split('|').length}`;
    if (line.startsWith('- ')) return 'item';
    return /^[A-Za-z0-9*…]/.test(line) ? 'text' : `other ${line.slice(0, 20)}`;
  });
}

/** Markdown an unescaped value would create outside code spans: a tag, an image, a link, a fence or an entity. */
const INJECTED = /(?<!\\)<[a-z]|(?<!\\)!(?<!\\)\[|(?<!\\)\]\(|^```|(?<!\\)&[a-z]+;/im;

/** The text outside code spans (CommonMark: a run of n backticks up to the next run of exactly n). */
function outsideCodeSpans(markdown: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = /`+/g;
    open.lastIndex = at;
    const start = open.exec(markdown);
    if (!start) return out + markdown.slice(at);
    const close = new RegExp(`(?<!\`)${start[0]}(?!\`)`, 'g');
    close.lastIndex = start.index + start[0].length;
    const end = close.exec(markdown);
    if (!end) return out + markdown.slice(at);
    out += `${markdown.slice(at, start.index)}CODE`;
    at = end.index + end[0].length;
  }
}

describe('the summary renders server strings as text', () => {
  const plain = skeleton(renderSummary(reportOf('word'), JSON_FILE));

  it('any string in any field gives the structure of a plain word', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({
            unit: fc.constantFrom(...'#>-*_`[]()!<>|&\\\n\r\t =+.:/@~'.split('')),
            maxLength: 40,
          }),
          fc.string({ unit: 'grapheme', maxLength: 40 }),
        ),
        (s) => {
          const markdown = renderSummary(reportOf(s), JSON_FILE);
          expect(skeleton(markdown)).toEqual(plain);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the classic injections stay text', () => {
    for (const s of [
      '# Heading\n## Another',
      '![x](http://e.test/x.png)',
      '[click](javascript:alert(1))',
      '<img src=x onerror=alert(1)>',
      '```\n# out of the fence',
      '| a | b |\n|---|---|',
      '&lt;script&gt;',
    ]) {
      const markdown = renderSummary(reportOf(s), JSON_FILE);
      expect(outsideCodeSpans(markdown), s).not.toMatch(INJECTED);
      expect(skeleton(markdown), s).toEqual(plain);
    }
  });
});

describe('the roll-up', () => {
  it('counts by rule and operation whatever the names, inherited property names included', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'constructor'];
    const causes = rollUp(names.map((n) => finding(n, { rule: 'schema', operationId: n })));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ rule: 'schema', count: 5 });
    expect(causes[0].operations).toEqual([
      { operationId: 'constructor', count: 2 },
      { operationId: '__proto__', count: 1 },
      { operationId: 'toString', count: 1 },
      { operationId: 'hasOwnProperty', count: 1 },
    ]);
  });

  it('puts failures first, then the causes with most findings, and leaves out the checks that could not run', () => {
    const causes = rollUp([
      finding('a', { rule: 'w', severity: 'warning' }),
      finding('a', { rule: 'w', severity: 'warning' }),
      finding('a', { rule: 'f1' }),
      finding('a', { rule: 'f2' }),
      finding('b', { rule: 'f2' }),
      finding('a', { rule: 'not-run', severity: 'warning' }),
    ]);
    expect(causes.map((c) => [c.rule, c.count])).toEqual([
      ['f2', 2],
      ['f1', 1],
      ['w', 2],
    ]);
  });
});

describe('the bound', () => {
  it('stays under 1 MiB with many causes and 100,000-character names, saying where the rest is', () => {
    const long = 'n'.repeat(100_000);
    const many = Array.from({ length: 2_000 }, (_, i) =>
      finding(`${long}${i}`, { rule: `rule-${i}-${long}` }),
    );
    const markdown = renderSummary(reportOf(long, many), JSON_FILE);
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES);
    expect(markdown).toMatch(/more cause\(s\) in `\/reports\/contract-report\.json`/);
  }, 120_000); // about 1 s on Node 20 and 24, 25-33 s on Node 26 (CI, 2026-11-28): not yet explained

  it('cuts at a section end, pointing to the JSON report, when the sections do not fit', () => {
    const full = renderSummary(reportOf('word'), JSON_FILE);
    const limit = Math.floor(Buffer.byteLength(full) / 2);
    const cut = renderSummary(reportOf('word'), JSON_FILE, limit);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
    expect(cut.startsWith('## Contract suite: FAILED')).toBe(true);
    expect(cut).toMatch(
      /the summary stops here.*every finding is in `\/reports\/contract-report\.json`/,
    );
  });
});

describe('the release hint', () => {
  const shapes: ReleaseShapes = {
    checked: { release: '1.3.0', operations: new Set(['listParts', 'listProducts', 'getAttr']) },
    older: [
      { release: '1.1.0', operations: new Set(['listParts']) },
      { release: '1.2.0', operations: new Set(['listParts', 'listProducts']) },
    ],
    fieldSince: new Map([['chipImage', '1.3.0']]),
  };
  const unknownPath = (op: string) =>
    finding('x', { operationId: op, status: 404, actual: '404 {"error":"No such path: /x"}' });

  it('names the newest release without the operations that answer "No such path"', () => {
    expect(
      releaseHint([unknownPath('getAttr')], new Set(['listParts', 'listProducts']), shapes),
    ).toMatchObject({ release: '1.2.0', alsoFits: [], unknownPaths: ['getAttr'] });
    // listProducts answered: 1.1.0, which lacks it, cannot be the target's release.
    expect(
      releaseHint(
        [unknownPath('getAttr'), unknownPath('listProducts')],
        new Set(['listParts']),
        shapes,
      ),
    ).toMatchObject({ release: '1.1.0', alsoFits: [] });
  });

  it('counts absent fields that arrived later, and gives no hint without a sign', () => {
    const absent = finding('x', { rule: 'absent-field', pointer: '/data/0/chipImage' });
    expect(releaseHint([absent], new Set(['listParts']), shapes)).toMatchObject({
      release: '1.2.0',
      laterFields: [{ name: 'chipImage', since: '1.3.0' }],
    });
    expect(releaseHint([finding('x')], new Set(['listParts']), shapes)).toBeUndefined();
  });
});

describe('the console', () => {
  it('prints each value of a finding on its line, without a terminal escape sequence', () => {
    const hostile = 'a\u001b[2J\u001b[31mred\nfake line\r\u0007';
    const text = formatFinding(finding(hostile, { change: { then: hostile, now: hostile } }));
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(text.split('\n')).toHaveLength(6); // header, request, pointer, then, now, repro
    expect(text).toContain('a\\u001b[2J\\u001b[31mred\\u000afake line\\u000d\\u0007');
  });

  it('says a verdict in one plain line: headline, counts, where the summary is; nothing a server shaped', () => {
    const hostile = 'a\u001b[2J\nfake line';
    const passed = { ...reportOf(hostile), passed: true };
    passed.counts = { ...passed.counts, failures: 0, failedTests: 0, notRun: 1 };
    const line = verdictLine(passed, '/reports/contract-summary.md');
    expect(line).toBe(
      'contract suite: passed, but 1 check(s) could not run: 0 failure(s), 2 warning(s), 1 of 2 test(s) skipped as not applying; 10 requests, 1.0 s. Summary: /reports/contract-summary.md',
    );
    expect(verdictLine(reportOf(hostile), '/s.md')).toMatch(/^contract suite: FAILED: 3 failure/);
  });

  it('prints the summary unless CONTRACT_CONSOLE asks for the verdict, and refuses any other value', () => {
    expect(readOptions({}).console).toBe('summary');
    expect(readOptions({ CONTRACT_CONSOLE: 'verdict' }).console).toBe('verdict');
    expect(() => readOptions({ CONTRACT_CONSOLE: 'quiet' })).toThrow(
      'CONTRACT_CONSOLE must be summary or verdict, got "quiet"',
    );
  });
});
