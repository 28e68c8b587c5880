/**
 * @module evidence/ledger.test
 * The ledger, the proposal and the pages on profiles built from hand-made answers (the meta-tests
 * use a real mock and transforming servers): a null or a number where the document says string,
 * an offset read as items, a nested default order the profile cannot judge, the same ledger
 * whatever order the answers came in, and a history of unchanged nights with nothing to show.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract } from '../contract/index.js';
import { documentFacts, type DocumentFacts } from './facts.js';
import { buildLedger, type Ledger } from './ledger.js';
import { observe, type Observation } from './observe.js';
import { proposeChange } from './patch.js';
import { emptyProfile, type Profile } from './profile.js';
import { renderLedgerHtml } from './render-html.js';
import { renderLedgerMarkdown } from './render-md.js';

const SPEC = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
let facts: DocumentFacts;

beforeAll(async () => {
  facts = documentFacts(await loadContract({ release: 'unreleased' }));
});

const pkg = (i: number, title: unknown = `Package ${i}`) => ({
  packageCode: `P${String(i).padStart(3, '0')}`,
  title,
  wwwUpdateDate: '2026-01-02T03:04:05Z',
});

function page(
  data: unknown[],
  query: [string, string][] = [],
  pagination = { offset: 0, limit: 10, total: data.length, has_more: false },
): Observation {
  return {
    operationId: 'listPackages',
    method: 'GET',
    path: '/packages',
    query,
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { data, pagination },
    undeclared: [],
  };
}

function profileOf(observations: readonly Observation[]): Profile {
  const profile = emptyProfile();
  for (const o of observations) observe(profile, o);
  return profile;
}

const ledgerOf = (observations: readonly Observation[], label = 'n') =>
  buildLedger(facts, profileOf(observations), { label });

const fact = (ledger: Ledger, id: string) => ledger.facts.find((f) => f.id === id)!;

describe('verdicts and the proposal', () => {
  it('a null where the document says string contradicts nullability; the patch adds null to the type', () => {
    const ledger = ledgerOf([page([pkg(1), pkg(2, null), pkg(3)])]);
    expect(fact(ledger, 'listPackages nullable 200 /data/*/title')).toMatchObject({
      verdict: 'contradicted',
      seen: 'null ×1',
      example: 'GET /packages',
    });
    expect(fact(ledger, 'listPackages type 200 /data/*/title')).toMatchObject({
      verdict: 'confirmed',
      observations: 2,
    });
    const { diff, edits } = proposeChange(ledger, SPEC, '## 7. x\n');
    expect(diff).toMatch(/^-\s+title: \{ type: string \}$/m);
    expect(diff).toMatch(/^\+\s+title: \{ type: \[string, 'null'\] \}$/m);
    expect(edits).toHaveLength(1);
  });

  it('a number where the document says string contradicts the type; the patch adds the type', () => {
    const ledger = ledgerOf([page([pkg(1, 7), pkg(2)])]);
    expect(fact(ledger, 'listPackages type 200 /data/*/title')).toMatchObject({
      verdict: 'contradicted',
      counts: { integer: 1 },
    });
    expect(proposeChange(ledger, SPEC, '').diff).toMatch(
      /^\+\s+title: \{ type: \[string, integer\] \}$/m,
    );
  });

  it('pages that fit an item offset contradict x-offset: page; the patch proposes item', () => {
    // offset=1 at limit 10 of 15: pages predict the last page (no more), items predict more.
    const ledger = ledgerOf([
      page(
        Array.from({ length: 10 }, (_, i) => pkg(i + 1)),
        [
          ['offset', '1'],
          ['limit', '10'],
        ],
        { offset: 1, limit: 10, total: 15, has_more: true },
      ),
    ]);
    expect(fact(ledger, 'listPackages offset ?offset')).toMatchObject({
      verdict: 'contradicted',
      counts: { item: 1, page: 0 },
    });
    const { diff } = proposeChange(ledger, SPEC, '');
    expect(diff).toMatch(/^-\s+x-offset: page$/m);
    expect(diff).toMatch(/^\+\s+x-offset: item$/m);
  });

  it('a default order on a nested field is unseen, not contradicted (the profile reads top-level fields)', () => {
    const ledger = buildLedger(
      facts,
      profileOf([
        {
          ...page([pkg(1), pkg(2), pkg(3)]),
          operationId: 'listProductParts',
          path: '/product-parts',
        },
      ]),
    );
    expect(fact(ledger, 'listProductParts order ?order')).toMatchObject({
      verdict: 'unseen',
      value: 'distiInventory.updated desc',
    });
  });

  it('the same answers in another order give the same ledger', () => {
    const answers = [page([pkg(1), pkg(2), pkg(3)]), page([pkg(4, null)], [['limit', '1']])];
    const a = ledgerOf(answers);
    const b = ledgerOf([...answers].reverse());
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});

describe('the pages', () => {
  it('two unchanged nights: nothing contradicted, a history table with no fact rows', () => {
    const answers = [page([pkg(1), pkg(2), pkg(3)])];
    const night1 = ledgerOf(answers, '2026-11-24');
    const night2 = ledgerOf(answers, '2026-11-25');
    const proposal = proposeChange(night2, SPEC, '');
    expect(proposal.diff).toBe('');
    const md = renderLedgerMarkdown(night2, proposal);
    expect(md).toContain('Nothing the document states was contradicted.');
    expect(md).toContain('No edit of the document is proposed.');
    const html = renderLedgerHtml(night2, proposal, [night1]);
    expect(html).toContain('<th scope="col">2026-11-24</th><th scope="col">2026-11-25</th>');
    expect(html).not.toContain('data-fact=');
    // Alone, the page says there is no history.
    expect(renderLedgerHtml(night2, proposal)).toContain('id="no-history"');
  });

  it('escapes what the target sent', () => {
    const ledger = ledgerOf([page([{ ...pkg(1), packageType: '<script>x</script>' }])]);
    const html = renderLedgerHtml(ledger, proposeChange(ledger, SPEC, ''));
    expect(html).not.toContain('<script>');
  });
});
