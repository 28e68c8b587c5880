/**
 * @module meta/drift.test
 * Proof that the suite catches drift: the suite's own check functions run against a real mock
 * behind a proxy that breaks ONE documented rule at a time, and must report a failure under that
 * rule's name; against the unbroken mock they must report none. Undeclared fields and inferred
 * shapes must warn, not fail (and fail under the strict policy). The coverage check must fail when
 * the document gains an operation no test covers (a copy of the document with one extra operation,
 * in a new family that has no test file and that the mock does not serve).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract } from '../../src/contract/index.js';
import { checkAuthentication, checkAuthorization } from '../../src/suite/checks/auth.js';
import { checkBadInput } from '../../src/suite/checks/bad-input.js';
import { checkOperationCoverage } from '../../src/suite/checks/coverage.js';
import { checkRequestLimits } from '../../src/suite/checks/cross-reference.js';
import { checkDeclaredStatuses } from '../../src/suite/checks/declared-statuses.js';
import { checkDownloads } from '../../src/suite/checks/downloads.js';
import { checkFilters } from '../../src/suite/checks/filters.js';
import { checkHrefs } from '../../src/suite/checks/hrefs.js';
import { checkIdEncoding } from '../../src/suite/checks/id-encoding.js';
import { checkNotFound } from '../../src/suite/checks/not-found.js';
import { checkEveryOperation } from '../../src/suite/checks/operations.js';
import { checkPagination } from '../../src/suite/checks/pagination.js';
import {
  checkRateLimitCountdown,
  checkRateLimitExceeded,
} from '../../src/suite/checks/rate-limit.js';
import { checkSorting } from '../../src/suite/checks/sorting.js';
import { checkSearch } from '../../src/suite/checks/search.js';
import { checkCrossReferenceMatches } from '../../src/suite/checks/cross-reference-matches.js';
import { createContext, type Check, type Scope } from '../../src/suite/support/context.js';
import { formatFinding, type Finding } from '../../src/suite/support/findings.js';
import { readOptions } from '../../src/suite/support/options.js';
import { onList, mapHrefs, runChecks, startTarget, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';

let target: Target;

beforeAll(async () => {
  target = await startTarget();
});

afterAll(async () => {
  await target?.close();
});

async function run(
  check: Check,
  scope: Scope | undefined,
  mutation: Mutation | undefined,
  env: Record<string, string> = {},
): Promise<Finding[]> {
  return (await runChecks(target, [check], scope, mutation, env)).findings;
}

const packages = { family: 'packages' };

interface Case {
  broken: string;
  rule: string;
  check: Check;
  scope?: Scope;
  mutation?: Mutation;
  env?: Record<string, string>;
}

const cases: Case[] = [
  {
    broken: "a field's type",
    rule: 'schema',
    check: checkEveryOperation,
    scope: packages,
    mutation: onList('/packages', (b) => void (b.data![0].title = 42)),
  },
  {
    broken: 'a required field missing',
    rule: 'schema',
    check: checkEveryOperation,
    scope: packages,
    mutation: onList('/packages', (b) => void delete b.data![0].packageCode),
  },
  {
    broken:
      'a field whose presence the source states (relatedProducts in the product list) missing',
    rule: 'schema',
    check: checkEveryOperation,
    scope: { family: 'products' },
    mutation: onList('/products', (b) => void delete b.data![0].relatedProducts),
  },
  {
    broken: 'a null where the field is not nullable',
    rule: 'schema',
    check: checkEveryOperation,
    scope: { family: 'software-tools' },
    mutation: onList('/software-tools', (b) => void (b.data![0].discontinued = null)),
  },
  {
    broken: 'an enum value',
    rule: 'schema',
    check: checkEveryOperation,
    scope: { family: 'boards-kits' },
    mutation: onList('/boards-kits', (b) => void (b.data![0].boardKitType = 'prototype')),
  },
  {
    broken: 'pagination offset (page instead of page x limit)',
    rule: 'pagination.offset',
    check: checkPagination,
    scope: packages,
    mutation: onList(
      '/packages',
      (b, req) => void (b.pagination!.offset = Number(req.query.get('offset') ?? 0)),
    ),
  },
  {
    broken: 'has_more',
    rule: 'pagination.has_more',
    check: checkPagination,
    scope: packages,
    mutation: onList('/packages', (b) => void (b.pagination!.has_more = false)),
  },
  // Sorting and filters are checked on documented lists (the packages list's parameters are inferred: they would only warn).
  {
    broken: 'sort order',
    rule: 'sort-order',
    check: checkSorting,
    scope: { family: 'products' },
    mutation: onList('/products', (b, req) => void (req.query.has('order') && b.data!.reverse())),
  },
  {
    broken: 'a filter ignored',
    rule: 'filter',
    check: checkFilters,
    scope: { family: 'boards-kits' },
    mutation: {
      request(req) {
        if (req.path === '/boards-kits') req.query.delete('boardKitType');
      },
    },
  },
  {
    broken: 'auth not enforced',
    rule: 'auth.401',
    check: checkAuthentication,
    scope: packages,
    mutation: {
      request(req) {
        if (!req.headers['x-api-key']) req.headers['x-api-key'] = 'demo-unlimited-key';
      },
    },
  },
  {
    broken: 'the 401 error body shape',
    rule: 'schema',
    check: checkAuthentication,
    scope: packages,
    mutation: {
      response(res) {
        if (res.status === 401) res.json = { message: 'Unauthorized' };
      },
    },
  },
  {
    broken: '403 not enforced for a key lacking the family',
    rule: 'auth.403',
    check: checkAuthorization,
    scope: { family: 'documents' },
    mutation: {
      request(req) {
        if (req.headers['x-api-key'] === 'demo-no-documents-key')
          req.headers['x-api-key'] = 'demo-unlimited-key';
      },
    },
  },
  {
    broken: 'rate-limit headers present but remaining above limit',
    rule: 'rate-limit-remaining',
    check: checkEveryOperation,
    scope: packages,
    mutation: {
      response(res) {
        if (res.headers.has('x-ratelimit-limit'))
          res.headers.set(
            'x-ratelimit-remaining',
            String(Number(res.headers.get('x-ratelimit-limit')) + 1),
          );
      },
    },
  },
  {
    broken: 'rate-limit headers present but not integers',
    rule: 'rate-limit-headers',
    check: checkEveryOperation,
    scope: packages,
    mutation: {
      response(res) {
        if (res.headers.has('x-ratelimit-limit')) res.headers.set('x-ratelimit-limit', 'plenty');
      },
    },
  },
  {
    broken: 'absolute hrefs on another origin than CONTRACT_PUBLIC_BASE_URL states',
    rule: 'href-off-base',
    check: checkHrefs,
    scope: { family: 'boards-kits' },
    env: { CONTRACT_PUBLIC_BASE_URL: 'https://api.example.com/web-data/v1' },
  },
  {
    broken: 'a search that ignores its filters',
    rule: 'search-filter',
    check: checkSearch,
    scope: { family: 'product-parts' },
    mutation: {
      request(req) {
        if (req.path === '/product-parts/search' && req.json && typeof req.json === 'object')
          delete (req.json as Record<string, unknown>).filters;
      },
    },
  },
  {
    broken: 'a search that returns parts of another product',
    rule: 'search-product',
    check: checkSearch,
    scope: { family: 'product-parts' },
    mutation: onList(
      '/product-parts/search',
      (b) => void (b.data?.[0] && (b.data[0].genericId = 'ANOTHER-PRODUCT')),
    ),
  },
  {
    broken: 'a cross-reference match type outside the enum',
    rule: 'schema',
    check: checkCrossReferenceMatches,
    scope: { family: 'product-parts' },
    mutation: onList('/product-parts/cross-reference', (b) =>
      b.data?.forEach((entry) =>
        (entry.results as Record<string, unknown>[]).forEach(
          (m) => (m.matchType = 'Pin-compatible'),
        ),
      ),
    ),
  },
  {
    broken: 'cross-reference entries out of request order',
    rule: 'cross-reference-order',
    check: checkCrossReferenceMatches,
    scope: { family: 'product-parts' },
    mutation: onList('/product-parts/cross-reference', (b) => void b.data?.reverse()),
  },
  {
    broken: 'hrefs',
    rule: 'href-resolves',
    check: checkHrefs,
    scope: { family: 'products' },
    mutation: onList('/products', (b) => mapHrefs(b, (h) => `${h}-broken`)),
  },
  {
    broken: '%23 not decoded',
    rule: 'id-encoding',
    check: checkIdEncoding,
    scope: { family: 'product-parts' },
    mutation: {
      request(req) {
        req.path = req.path.replace(/%23/g, '%2523');
      },
    },
  },
  {
    broken: 'content type',
    rule: 'content-type',
    check: checkEveryOperation,
    scope: packages,
    mutation: onList('/packages', (_b, _req, res) => res.headers.set('content-type', 'text/plain')),
  },
  {
    broken: 'an undeclared status',
    rule: 'undeclared-status',
    check: checkEveryOperation,
    scope: packages,
    mutation: onList('/packages', (_b, _req, res) => void (res.status = 418)),
  },
  {
    broken: 'x-ratelimit-remaining that does not count down',
    rule: 'rate-limit-countdown',
    check: checkRateLimitCountdown,
    mutation: {
      response(res) {
        if (res.headers.has('x-ratelimit-remaining')) res.headers.set('x-ratelimit-remaining', '5');
      },
    },
  },
  {
    broken: '429 Retry-After vs retry_after',
    rule: 'rate-limit-retry-after',
    check: checkRateLimitExceeded,
    mutation: {
      response(res) {
        if (res.status === 429)
          res.headers.set(
            'retry-after',
            String(Number((res.json as Record<string, unknown>).retry_after) + 5),
          );
      },
    },
  },
];

describe('the suite against the unbroken mock', () => {
  const all: [string, Check][] = [
    ['404', checkNotFound],
    ['pagination', checkPagination],
    ['sorting', checkSorting],
    ['filters', checkFilters],
    ['hrefs', checkHrefs],
    ['id encoding', checkIdEncoding],
    ['downloads', checkDownloads],
    ['request limits', checkRequestLimits],
    ['search', checkSearch],
    ['cross-reference matches', checkCrossReferenceMatches],
    ['bad input', checkBadInput],
    ['declared statuses', checkDeclaredStatuses],
    ['authentication', checkAuthentication],
    ['authorization', checkAuthorization],
    ['rate-limit countdown', checkRateLimitCountdown],
    ['rate-limit exceeded', checkRateLimitExceeded],
  ];
  it.each(all)('%s: no failures', async (_name, check) => {
    const failures = (await run(check, undefined, undefined)).filter(
      (f) => f.severity === 'failure',
    );
    expect(failures.map(formatFinding)).toEqual([]);
  });
});

describe('the suite against a mock with one rule broken', () => {
  it.each(cases)('$broken -> failure "$rule"', async ({ check, scope, mutation, rule, env }) => {
    const findings = await run(check, scope, mutation, env);
    const named = findings.filter((f) => f.severity === 'failure' && f.rule === rule);
    expect(
      named.length,
      `findings: ${findings.map((f) => `${f.severity}:${f.rule}`).join(', ') || 'none'}`,
    ).toBeGreaterThan(0);
    // The message names the operation, the request and a curl line with the key as a variable.
    expect(formatFinding(named[0])).toMatch(/request: +(GET|POST|HEAD) http/);
    expect(JSON.stringify(findings)).not.toMatch(/demo-(unlimited|no-documents|low-tier)-key/);
  });
});

describe('drift the schema allows', () => {
  const extraField = onList('/packages', (b) => b.data!.forEach((r) => (r.newField = 'surprise')));
  const inferredBreak = onList('/product-parts', (b) => void (b.data![0].BOPN = 7));

  it('an undeclared field is a warning with pointer and sample, not a failure', async () => {
    const findings = await run(checkEveryOperation, packages, extraField);
    expect(findings.filter((f) => f.severity === 'failure')).toEqual([]);
    const drift = findings.filter((f) => f.rule === 'undeclared-field');
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({
      severity: 'warning',
      pointer: '/data/0/newField',
      actual: '"surprise"',
    });
  });

  it('a 1.2.0 by-ID product carrying the 1.0.0 fields as well warns about them, and does not fail', async () => {
    // Neither source forbids additionalDetails/relatedProducts beside applicationBlockDiagrams.
    const both: Mutation = {
      response(res, req) {
        const body = res.json as Record<string, unknown> | undefined;
        if (!/^\/products\/[^/]+$/.test(req.path) || res.status !== 200 || !body) return;
        if (!('applicationBlockDiagrams' in body)) return;
        body.additionalDetails = 'Also sold as a module.';
        body.relatedProducts = [{ productId: 'P-OTHER', title: 'Other', href: '/x' }];
      },
    };
    const findings = await run(checkEveryOperation, { family: 'products' }, both);
    expect(findings.filter((f) => f.severity === 'failure').map(formatFinding)).toEqual([]);
    const drift = findings.filter((f) => f.rule === 'undeclared-field').map((f) => f.pointer);
    expect(drift).toEqual(expect.arrayContaining(['/additionalDetails', '/relatedProducts']));
  });

  it('an undeclared field fails under CONTRACT_STRICT=1', async () => {
    const findings = await run(checkEveryOperation, packages, extraField, { CONTRACT_STRICT: '1' });
    expect(findings.filter((f) => f.severity === 'failure').map((f) => f.rule)).toContain(
      'undeclared-field',
    );
  });

  it('an allowlisted undeclared field is not reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-allow-'));
    const file = join(dir, 'allow.yaml');
    writeFileSync(file, '- /data/*/newField\n');
    const findings = await run(checkEveryOperation, packages, extraField, {
      CONTRACT_ALLOWLIST: file,
    });
    expect(findings.filter((f) => f.rule === 'undeclared-field')).toEqual([]);
  });

  it('a violation of an inferred schema is "inferred shape differs", a warning', async () => {
    const findings = await run(checkEveryOperation, { family: 'product-parts' }, inferredBreak);
    expect(findings.filter((f) => f.severity === 'failure').map(formatFinding)).toEqual([]);
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        rule: 'inferred-shape',
        pointer: '/data/0/BOPN',
        source: 'inferred',
      }),
    );
  });

  it('the same inferred violation fails under the strict policy', async () => {
    const findings = await run(checkEveryOperation, { family: 'product-parts' }, inferredBreak, {
      CONTRACT_STRICT: '1',
    });
    expect(findings.filter((f) => f.severity === 'failure').map((f) => f.rule)).toContain(
      'inferred-shape',
    );
  });
});

function documentWithExtraOperation(): string {
  const doc = parse(readFileSync(DEFAULT_SPEC_PATH, 'utf8')) as {
    paths: Record<string, unknown>;
    tags: { name: string }[];
  };
  doc.tags.push({ name: 'widgets' });
  doc.paths['/widgets'] = {
    get: {
      operationId: 'listWidgets',
      tags: ['widgets'],
      summary: 'A new operation no test knows',
      'x-source': 'documented',
      'x-since': 'unreleased',
      responses: {
        '200': {
          description: 'Widgets.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'contract-cov-')), 'openapi.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}

describe('operation coverage', () => {
  it('passes for the document as it is', async () => {
    const ctx = await createContext({ ...readOptions({}), baseUrl: target.mock.url });
    const failures = (await checkOperationCoverage(ctx)).filter((f) => f.severity === 'failure');
    expect(failures).toEqual([]);
  });

  it('fails, naming the operation, when the document gains one no test covers', async () => {
    const contract = await loadContract({
      specPath: documentWithExtraOperation(),
      release: 'unreleased',
    });
    const ctx = await createContext({ ...readOptions({}), baseUrl: target.mock.url }, { contract });
    const coverage = (await checkOperationCoverage(ctx)).filter(
      (f) => f.severity === 'failure' && f.rule === 'coverage',
    );
    expect(coverage.map((f) => f.operationId)).toEqual(['listWidgets', 'listWidgets']);
    expect(coverage.map((f) => f.message).join('\n')).toMatch(
      /family "widgets" of listWidgets has no test file[\s\S]*never exercised/,
    );
  });
});

describe('the blind spots are looked at, not passed silently', () => {
  it('search and cross-reference send real inputs and see real answers against the mock', async () => {
    const { ctx, findings } = await runChecks(
      target,
      [checkSearch, checkCrossReferenceMatches],
      { family: 'product-parts' },
      undefined,
    );
    expect(findings.filter((f) => f.rule === 'not-run')).toEqual([]);
    const searches = ctx.notes.filter(
      (n) => n.operationId === 'searchProductParts' && n.status === 200,
    );
    // The unfiltered search, then every operator on a numeric attribute, OR and eq on a text one, and both together.
    expect(searches.length).toBeGreaterThanOrEqual(9);
    expect(ctx.notes.some((n) => n.operationId === 'getProductPart' && n.status === 200)).toBe(
      true,
    );
  });

  // A "restricted" key that is in truth unrestricted (the live equivalent: a key whose scopes were widened).
  const unrestrictedAsRestricted = {
    CONTRACT_BASE_URL: '',
    CONTRACT_API_KEY: 'demo-unlimited-key',
    CONTRACT_RESTRICTED_API_KEY: 'demo-unlimited-key',
  };

  it('a restricted key refused nowhere (families probed) is a check that could not run, said once', async () => {
    const { findings } = await runChecks(target, [checkAuthorization], undefined, undefined, {
      ...unrestrictedAsRestricted,
      CONTRACT_BASE_URL: target.proxy.url,
    });
    expect(findings.filter((f) => f.severity === 'failure').map(formatFinding)).toEqual([]);
    const notRun = findings.filter((f) => f.rule === 'not-run');
    expect(notRun).toHaveLength(1);
    expect(notRun[0]).toMatchObject({
      severity: 'warning',
      expected: '403 (authorization) checked',
      message: expect.stringMatching(
        /^403 \(authorization\) not checked: the restricted key was refused nowhere .*CONTRACT_RESTRICTED_FAMILIES/,
      ),
    });
  });

  it('a restricted key that reaches the families CONTRACT_RESTRICTED_FAMILIES names fails auth.403', async () => {
    const { findings } = await runChecks(
      target,
      [checkAuthorization],
      { family: 'documents' },
      undefined,
      {
        ...unrestrictedAsRestricted,
        CONTRACT_BASE_URL: target.proxy.url,
        CONTRACT_RESTRICTED_FAMILIES: 'documents',
      },
    );
    const refused = findings.filter((f) => f.severity === 'failure' && f.rule === 'auth.403');
    expect(refused.length).toBeGreaterThan(0);
    expect(formatFinding(refused[0])).toMatch(/expected: +status 403/);
    expect(findings.filter((f) => f.rule === 'not-run')).toEqual([]);
  });

  it('without known competitor numbers, a live run says the matches were not checked', async () => {
    const { findings } = await runChecks(
      target,
      [checkCrossReferenceMatches],
      { family: 'product-parts' },
      undefined,
      { CONTRACT_BASE_URL: target.proxy.url, CONTRACT_API_KEY: 'demo-unlimited-key' },
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        rule: 'not-run',
        message: expect.stringMatching(
          /cross-reference matches not checked: no competitor numbers known to match \(set CONTRACT_XREF_NUMBERS\)/,
        ),
      }),
    );
  });
});
