/**
 * @module meta/ledger.test
 * The fact ledger against servers that differ from the mock the way a live service might: the
 * real mock behind the meta harness's transforming proxy, its answers folded into a profile as a
 * client observing them would. Against the mock itself nothing is contradicted; each change shows
 * as the verdict or candidate it should (a field dropped, a date-time served as a date, a new enum
 * value, a page size of 25 where the document infers 10, an undeclared field in every record, a
 * different default order), and the proposed patch is a diff that applies to the document and
 * leaves it loadable (and `git apply` takes it).
 */
import { applyPatch } from 'diff';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract, type Contract } from '../../src/contract/index.js';
import { documentFacts, type DocumentFacts } from '../../src/evidence/index.js';
import { buildLedger, type Ledger } from '../../src/evidence/index.js';
import { proposeChange } from '../../src/evidence/index.js';
import { listAsks, observeTarget, type Ask } from '../../src/testing/observe-target.js';
import { onList, startTarget, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';

const DECISIONS = readFileSync(new URL('../../spec/DECISIONS.md', import.meta.url), 'utf8');
const SPEC = readFileSync(DEFAULT_SPEC_PATH, 'utf8');

let target: Target;
let contract: Contract;
let facts: DocumentFacts;

beforeAll(async () => {
  target = await startTarget();
  contract = await loadContract({ release: 'unreleased' });
  facts = documentFacts(contract);
});

afterAll(async () => {
  await target?.close();
});

const ASKS: Ask[] = [
  ...listAsks('listPackages', '/packages'),
  ...listAsks('listDocuments', '/documents'),
  ...listAsks('listProducts', '/products'),
  ...listAsks('listBoardsKits', '/boards-kits'),
  { operationId: 'listPackages', path: '/packages?limit=0' },
];

async function ledgerOf(mutation: Mutation | undefined, label = 'night'): Promise<Ledger> {
  target.proxy.use(mutation);
  const profile = await observeTarget(target.proxy.url, contract, ASKS);
  return buildLedger(facts, profile, { label });
}

const fact = (ledger: Ledger, id: string) => {
  const found = ledger.facts.find((f) => f.id === id);
  if (!found) throw new Error(`no fact ${id}`);
  return found;
};

describe('the document facts', () => {
  it('name every kind with its x-source, and the nine inferred choices by where their mark stands', () => {
    const kinds = new Set(facts.facts.map((f) => f.kind));
    expect([...kinds].sort()).toEqual(
      [
        'default',
        'enum',
        'field',
        'format',
        'maximum',
        'media-type',
        'nullable',
        'offset',
        'operation',
        'order',
        'status',
        'type',
      ].sort(),
    );
    const marks = new Set(facts.facts.filter((f) => f.source === 'inferred').map((f) => f.markAt));
    expect([...marks].sort()).toEqual([
      '#/components/responses/BadRequest',
      '#/components/responses/PayloadTooLarge',
      '#/components/responses/ServerErrorUndocumented',
      '#/components/schemas/FileBytes',
      '#/components/schemas/PayloadTooLargeError',
      '#/components/schemas/ProductPart/properties/BOPN',
      '#/paths/~1documents/get/parameters/0',
      '#/paths/~1documents~1download~1{dcp_id}/get',
      '#/paths/~1documents~1download~1{dcp_id}/head',
    ]);
    // As many as the document has x-source: inferred marks.
    expect(SPEC.match(/x-source: inferred/g)).toHaveLength(marks.size);
  });
});

describe('the ledger against the unchanged mock', () => {
  it('contradicts nothing and confirms what it saw, with counts; the inferred page size is confirmed', async () => {
    const ledger = await ledgerOf(undefined);
    expect(
      ledger.facts.filter((f) => f.verdict === 'contradicted').map((f) => `${f.id}: ${f.seen}`),
    ).toEqual([]);
    expect(fact(ledger, 'listPackages field 200 /data/*/packageCode')).toMatchObject({
      verdict: 'confirmed',
      source: 'documented',
    });
    expect(fact(ledger, 'listPackages field 200 /data/*/packageCode').observations).toBeGreaterThan(
      20,
    );
    expect(fact(ledger, 'listDocuments default ?limit')).toMatchObject({
      verdict: 'confirmed',
      source: 'inferred',
    });
    expect(fact(ledger, 'listPackages status 400')).toMatchObject({
      verdict: 'confirmed',
      source: 'inferred',
    });
    expect(fact(ledger, 'listProducts order ?order')).toMatchObject({
      verdict: 'confirmed',
      value: 'wwwUpdateDate desc',
    });
    const limit = ledger.inferred.find((i) => i.markAt === '#/paths/~1documents/get/parameters/0');
    expect(limit?.verdict).toBe('confirmed');
    expect(ledger.inferred.find((i) => i.markAt.endsWith('/BOPN'))?.verdict).toBe('unseen');
    expect(proposeChange(ledger, SPEC, DECISIONS).diff).toBe('');
  });

  it('is the same for the same profile', async () => {
    const a = await ledgerOf(undefined);
    const b = await ledgerOf(undefined);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe('the ledger against a changed server', () => {
  it('a required field dropped from every record is contradicted with counts and a request', async () => {
    const ledger = await ledgerOf(
      onList('/packages', (b) => b.data!.forEach((r) => delete r.packageCode)),
    );
    const f = fact(ledger, 'listPackages field 200 /data/*/packageCode');
    expect(f.verdict).toBe('contradicted');
    expect(f.seen).toMatch(/^missing from (\d+) of \1 record\(s\)$/);
    expect(f.example).toMatch(/^GET \/packages/);
  });

  it('an optional field dropped from every record is unseen, in none of the records', async () => {
    const ledger = await ledgerOf(
      onList('/packages', (b) => b.data!.forEach((r) => delete r.packageName)),
    );
    expect(fact(ledger, 'listPackages field 200 /data/*/packageName')).toMatchObject({
      verdict: 'unseen',
      note: expect.stringMatching(/^in none of \d+ record/),
    });
  });

  it('a date-time served as a date changes the format candidate', async () => {
    const id = 'listPackages format 200 /data/*/wwwUpdateDate';
    const before = (await ledgerOf(undefined)).candidates.find((c) => c.id === id);
    expect(before).toMatchObject({ format: 'date-time', consistent: true });
    const after = (
      await ledgerOf(
        onList('/packages', (b) =>
          b.data!.forEach((r) => (r.wwwUpdateDate = String(r.wwwUpdateDate).slice(0, 10))),
        ),
      )
    ).candidates.find((c) => c.id === id);
    expect(after).toMatchObject({ format: 'date', seen: expect.stringMatching(/^always date \(/) });
  });

  it('a new enum value contradicts the enum and the patch adds it', async () => {
    const ledger = await ledgerOf(
      onList('/boards-kits', (b) => void (b.data![0].boardKitType = 'prototype')),
    );
    const f = fact(ledger, 'listBoardsKits enum 200 /data/*/boardKitType');
    expect(f).toMatchObject({ verdict: 'contradicted', counts: { prototype: expect.any(Number) } });
    const { diff } = proposeChange(ledger, SPEC, DECISIONS);
    expect(diff).toMatch(/^\+.*enum: \[.*prototype\]/m);
  });

  it('a page size of 25 contradicts the inferred default of 10; the patch proposes 25 and a DECISIONS entry citing it', async () => {
    const ledger = await ledgerOf({
      request(req) {
        if (req.path === '/documents' && !req.query.has('limit')) req.query.set('limit', '25');
      },
    });
    const f = fact(ledger, 'listDocuments default ?limit');
    expect(f).toMatchObject({
      verdict: 'contradicted',
      source: 'inferred',
      counts: { '25': expect.any(Number) },
    });
    expect(
      ledger.inferred.find((i) => i.markAt === '#/paths/~1documents/get/parameters/0')?.verdict,
    ).toBe('contradicted');
    const proposal = proposeChange(ledger, SPEC, DECISIONS);
    expect(proposal.diff).toMatch(/^-.*default: 10 }$/m);
    expect(proposal.diff).toMatch(/^\+.*default: 25 }$/m);
    // The next free entry number of DECISIONS.md.
    const next = Math.max(...[...DECISIONS.matchAll(/^## (\d+)\./gm)].map((m) => Number(m[1]))) + 1;
    // The label is the user's text: cited as a code span, like every value in the entry.
    expect(proposal.decisions.startsWith(`## ${next}. Evidence of \`night\`: `)).toBe(true);
    expect(proposal.decisions).toMatch(
      /^ {2}- `listDocuments default \?limit`: `10` -> 25 \(`full pages asked without limit held 25 records \(\d+ pages?\)`\); request: `GET \/documents`$/m,
    );
    // As a person would apply it: git apply, from the repository's root.
    const root = mkdtempSync(join(tmpdir(), 'ledger-apply-'));
    mkdirSync(join(root, 'spec'));
    writeFileSync(join(root, 'spec', 'openapi.yaml'), SPEC);
    writeFileSync(join(root, 'openapi.patch'), proposal.diff);
    const applied = spawnSync('git', ['apply', 'openapi.patch'], { cwd: root, encoding: 'utf8' });
    expect(applied.status, applied.stderr).toBe(0);
    expect(readFileSync(join(root, 'spec', 'openapi.yaml'), 'utf8')).toContain(
      'x-source: inferred\n          schema: { type: integer, minimum: 1, maximum: 100, default: 25 }',
    );
  });

  it('an undeclared field in every record is a consistent candidate; the patch declares it and the document still loads', async () => {
    const ledger = await ledgerOf(
      onList('/packages', (b) => b.data!.forEach((r) => (r.moistureLevel = 'MSL-3'))),
    );
    const c = ledger.candidates.find(
      (x) => x.id === 'listPackages field 200 /data/*/moistureLevel',
    );
    expect(c).toMatchObject({
      consistent: true,
      types: ['string'],
      propertiesAt: '#/components/schemas/Package/properties',
    });
    const { diff } = proposeChange(ledger, SPEC, DECISIONS);
    expect(diff).toMatch(
      /^\+ {8}moistureLevel: \{ type: string, x-source: inferred, description: /m,
    );
    const patched = applyPatch(SPEC, diff);
    expect(patched).not.toBe(false);
    const file = join(mkdtempSync(join(tmpdir(), 'ledger-patch-')), 'openapi.yaml');
    writeFileSync(file, patched as string);
    const reloaded = await loadContract({ specPath: file, release: 'unreleased' });
    const schema = reloaded.document.components!.schemas!.Package as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties.moistureLevel).toMatchObject({
      type: 'string',
      'x-source': 'inferred',
    });
  });

  it('a different default order contradicts the order fact, naming the order the pages fit', async () => {
    const ledger = await ledgerOf(
      onList('/products', (b, req) => void (!req.query.has('order') && b.data!.reverse())),
    );
    const f = fact(ledger, 'listProducts order ?order');
    expect(f.verdict).toBe('contradicted');
    expect(f.seen).toMatch(/the pages fit .*wwwUpdateDate asc/);
  });
});
