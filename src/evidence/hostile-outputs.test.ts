/**
 * @module evidence/hostile-outputs.test
 * What a target or a file sends stays data in every page the evidence layer writes: a Markdown
 * heading, image or link in a name or value does not become one in `evidence.md`, a value cannot
 * close the DECISIONS fence, a field name cannot split `spec/openapi.yaml` through the patch (a
 * name with a control character is not proposed at all), a default outside its schema's bounds is
 * not proposed, and a crafted earlier night cannot run script in `evidence.html`. The property
 * tests put any string in every place a ledger carries one and compare the parsed structure
 * (GFM Markdown, HTML, YAML) with the same page built from a plain word.
 */
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseHtml } from 'parse5';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { DEFAULT_SPEC_PATH, loadContract } from '../contract/index.js';
import { documentFacts, type DocumentFacts } from './facts.js';
import { buildLedger, type Candidate, type Ledger, type LedgerEntry } from './ledger.js';
import { observe, type Observation } from './observe.js';
import { proposeChange } from './patch.js';
import { emptyProfile } from './profile.js';
import { renderLedgerHtml } from './render-html.js';
import { renderLedgerMarkdown } from './render-md.js';

const SPEC = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
let facts: DocumentFacts;
/** A night with one contradicted fact and one consistent undeclared field (a proposed property). */
let base: Ledger;

const record = (i: number) => ({
  packageCode: `P${i}`,
  title: i === 2 ? null : `Package ${i}`,
  wwwUpdateDate: '2026-01-02T03:04:05Z',
  extraField: 'x',
});

beforeAll(async () => {
  facts = documentFacts(await loadContract({ release: 'unreleased' }));
  const profile = emptyProfile();
  const answer: Observation = {
    operationId: 'listPackages',
    method: 'GET',
    path: '/packages',
    query: [],
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { data: [1, 2, 3].map(record), pagination: { offset: 0, limit: 10, total: 3 } },
    undeclared: ['/data/*/extraField'],
  };
  observe(profile, answer);
  base = buildLedger(facts, profile, { label: 'night' });
});

/** The night with `text` in every string a target or a file can put in a ledger. */
function hostile(text: string): Ledger {
  const ledger = structuredClone(base);
  ledger.label = text;
  const contradicted = ledger.facts.find((f) => f.verdict === 'contradicted')!;
  Object.assign(contradicted, { seen: text, example: `GET /packages?q=${text}` });
  const field = ledger.candidates.find((c) => c.kind === 'field' && c.consistent)!;
  const odd: Candidate = {
    ...field,
    id: `listPackages field 200 /data/*/${text}`,
    subject: `/data/*/${text}`,
    seen: text,
    example: text,
  };
  ledger.candidates.push(odd, { ...field, kind: 'values', subject: text, seen: text });
  ledger.inferred.push({ ...ledger.inferred[0], markAt: text, examples: [text] });
  return ledger;
}

/** The Markdown's structure: node types and depths, no text. */
function markdownShape(markdown: string): string[] {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const out: string[] = [];
  const walk = (node: { type: string; depth?: number; children?: unknown[] }, level: number) => {
    out.push(`${level} ${node.type}${node.depth ? node.depth : ''}`);
    for (const c of node.children ?? []) walk(c as typeof node, level + 1);
  };
  walk(tree, 0);
  return out;
}

/** The HTML's structure: elements and attribute names, no text. */
function htmlShape(html: string): string[] {
  const out: string[] = [];
  type El = { nodeName: string; attrs?: { name: string }[]; childNodes?: El[] };
  const walk = (node: El, level: number) => {
    if (node.nodeName !== '#text')
      out.push(`${level} ${node.nodeName} ${(node.attrs ?? []).map((a) => a.name).join(',')}`);
    for (const c of node.childNodes ?? []) walk(c, level + 1);
  };
  walk(parseHtml(html), 0);
  return out;
}

const INJECTION =
  'x\n# Owned\n![i](http://e.test/i.png) [l](http://e.test) <b>b</b>\n```\n## 999. fake';

describe('evidence.md', () => {
  it('puts no heading, image, link or HTML of a value into the page, and no value closes the DECISIONS fence', () => {
    const ledger = hostile(INJECTION);
    const proposal = proposeChange(ledger, SPEC, '');
    const md = renderLedgerMarkdown(ledger, proposal);
    const types = markdownShape(md).map((l) => l.split(' ')[1]);
    expect(types).not.toContain('image');
    expect(types).not.toContain('link');
    expect(types).not.toContain('html');
    expect(md).not.toMatch(/^#+ Owned/m);
    expect(md).not.toMatch(/^## 999/m);
    expect(markdownShape(md)).toEqual(
      markdownShape(renderLedgerMarkdown(hostile('x'), proposeChange(hostile('x'), SPEC, ''))),
    );
  });

  it('any string yields the structure of a plain word (property)', () => {
    const plain = markdownShape(
      renderLedgerMarkdown(hostile('x'), proposeChange(hostile('x'), SPEC, '')),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (text) => {
        const ledger = hostile(text);
        expect(
          markdownShape(renderLedgerMarkdown(ledger, proposeChange(ledger, SPEC, ''))),
        ).toEqual(plain);
      }),
      { numRuns: 25 },
    );
  });
});

describe('evidence.html', () => {
  it('any string yields the structure of a plain word (property)', () => {
    const plain = htmlShape(
      renderLedgerHtml(hostile('x'), proposeChange(hostile('x'), SPEC, ''), [hostile('x')]),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (text) => {
        const ledger = hostile(text);
        const html = renderLedgerHtml(ledger, proposeChange(ledger, SPEC, ''), [hostile(text)]);
        expect(htmlShape(html)).toEqual(plain);
      }),
      { numRuns: 25 },
    );
  });

  it('a crafted earlier night (a verdict, a count) cannot add an element', () => {
    const night = structuredClone(base) as unknown as {
      facts: Record<string, unknown>[];
      summary: Record<string, unknown>;
    };
    night.facts.find((f) => f.verdict === 'contradicted')!.verdict = '"><script>alert(1)</script>';
    night.summary.confirmed = '<img src=x onerror=alert(1)>';
    const html = renderLedgerHtml(base, proposeChange(base, SPEC, ''), [
      night as unknown as Ledger,
    ]);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
  });
});

describe('openapi.patch', () => {
  const patched = (ledger: Ledger): string => {
    const { diff } = proposeChange(ledger, SPEC, '');
    const out = applyPatch(SPEC, diff);
    expect(out).not.toBe(false);
    return out as string;
  };
  const withField = (name: string): Ledger => {
    const ledger = structuredClone(base);
    const field = ledger.candidates.find((c) => c.kind === 'field' && c.consistent)!;
    const subject = `/data/*/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    ledger.candidates = [{ ...field, id: `x ${subject}`, subject }];
    ledger.facts = [];
    return ledger;
  };

  it('quotes a name so that --- and # stay inside it: one document, the name read back', () => {
    const name = 'a --- b # c: \'d\' "e" [f] {g}';
    const text = patched(withField(name));
    expect(parseAllDocuments(text)).toHaveLength(1);
    const doc = parseYaml(text) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const holders = Object.values(doc.components.schemas).filter(
      (s) => s.properties && name in s.properties,
    );
    expect(holders).toHaveLength(1);
  });

  it('does not propose a name with a line break or another control character', () => {
    for (const name of ['a\n---\nb', 'a\rb', 'a\u0000b', 'a\u2028b']) {
      const { diff, decisions } = proposeChange(withField(name), SPEC, '');
      expect(diff).toBe('');
      expect(decisions).not.toContain('\n---\n');
    }
  });

  it('any name yields one document whose properties read back (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), (name) => {
        const ledger = withField(name);
        const { diff } = proposeChange(ledger, SPEC, '');
        if (diff === '') return; // not proposed: a control character
        const text = applyPatch(SPEC, diff) as string;
        expect(parseAllDocuments(text)).toHaveLength(1);
        const doc = parseYaml(text) as {
          components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
        };
        expect(
          Object.values(doc.components.schemas).some(
            (s) => s.properties && Object.hasOwn(s.properties, name),
          ),
        ).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('proposes a default only inside the schema bounds', () => {
    const ledger = structuredClone(base);
    const fact = ledger.facts.find(
      (f) => f.kind === 'default' && f.subject === '?limit' && f.operationId === 'listPackages',
    )!;
    const absurd: LedgerEntry = {
      ...fact,
      verdict: 'contradicted',
      seen: 'full pages asked without limit held 1e+308 records (5 pages)',
      counts: { '1e+308': 5 },
    };
    ledger.facts = [absurd];
    ledger.candidates = [];
    const { diff, decisions } = proposeChange(ledger, SPEC, '');
    expect(diff).not.toMatch(/1e\+308/);
    expect(decisions).toContain('To decide by hand');
    ledger.facts = [{ ...absurd, counts: { '25': 5 } }];
    expect(proposeChange(ledger, SPEC, '').diff).toMatch(/^\+.*default: 25/m);
  });
});
