/**
 * @module vary/vary.test
 * Legal variation, proved on every operation of every release with several seeds: each varied
 * answer passes the mock's own response check (the app runs with it on, and the body is checked
 * again here), keeps what the answer means (status, pagination, order, identifiers, the fields
 * lists filter and sort on, links), is the same for the same seed and request (the handlers'
 * caches of unvaried bytes stay unvaried), differs for another seed, and names its edits in
 * `x-mock-variation`.
 */
import { describe, expect, it } from 'vitest';
import { checkResponse, loadContract, UNRELEASED, type Operation } from '../../contract/index.js';
import type { Examples } from '../examples.js';
import type { MockApp } from '../app.js';
import { call, testApp } from '../../testing/mock-app.js';
import type { EditKind } from './edits.js';
import { parseVariationHeader, VARIATION_HEADER } from './header.js';
import { keptFields } from './kept.js';

const SEEDS = [1, 2, 3];
const { releases } = await loadContract({ release: UNRELEASED });

interface Exchange {
  label: string;
  operation: Operation;
  method: string;
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** One request per operation (its example), and error answers: 401, 400 and 404. */
async function exchanges(app: MockApp): Promise<Exchange[]> {
  const examples = (await call(app, 'http://mock.test/examples.json', { key: null }))
    .body as Examples;
  const { contract } = app.state;
  const requests = Object.entries(examples.operations).map(([operationId, ex]) => ({
    operationId,
    path: ex.path,
    method: ex.method,
    body: ex.body,
    key: undefined as null | undefined,
  }));
  // Error answers: the first GET without a key (401), with a limit out of range (400), and a
  // by-ID GET of an identifier nobody has (404).
  const gets = contract.operations.filter((op) => op.method === 'get');
  const list = gets.find((op) => op.parameters.some((p) => p.name === 'limit'))!;
  const byId = gets.find((op) => op.path.includes('{'))!;
  requests.push(
    {
      operationId: gets[0].operationId,
      path: examples.operations[gets[0].operationId].path,
      method: 'GET',
      body: undefined,
      key: null,
    },
    {
      operationId: list.operationId,
      path: `${list.path}?limit=0`,
      method: 'GET',
      body: undefined,
      key: undefined,
    },
    {
      operationId: byId.operationId,
      path: byId.path.replace(/\{[^}]+\}/, 'NO-SUCH-ID'),
      method: 'GET',
      body: undefined,
      key: undefined,
    },
  );
  const out: Exchange[] = [];
  for (const r of requests) {
    const res = await call(app, r.path, { method: r.method, body: r.body, key: r.key });
    out.push({
      label: `${r.method} ${r.path}`,
      operation: contract.operation(r.operationId),
      method: r.method,
      status: res.status,
      headers: res.headers,
      text: res.text,
      body: res.body as unknown,
    });
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every string that is a link (a relative path or an http URL), anywhere in a body. */
function links(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && (value.startsWith('/') || /^https?:\/\//.test(value)))
    into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => links(v, into));
  else if (isRecord(value)) Object.values(value).forEach((v) => links(v, into));
  return into;
}

/** The records an answer carries: a list's `data` items, else the body itself. */
function recordsOf(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body.data) ? body.data : [body];
}

describe.each(releases)('legal variation at release %s', async (release) => {
  const plain = await exchanges(await testApp({ apiVersion: release }));
  const varied = new Map<number, Exchange[]>();
  for (const seed of SEEDS)
    varied.set(seed, await exchanges(await testApp({ apiVersion: release, vary: { seed } })));
  const kept = keptFields((await loadContract({ release })).operations).names;

  it('every varied answer keeps the document (the mock self-check and a second check here)', async () => {
    const app = await testApp({ apiVersion: release });
    for (const [seed, answers] of varied)
      for (const answer of answers) {
        const findings = checkResponse(app.state.validators, answer.operation, {
          status: answer.status,
          method: answer.method,
          header: (name) => answer.headers.get(name),
          body: answer.body === undefined ? { kind: 'none' } : { kind: 'json', value: answer.body },
        });
        expect(findings, `seed ${seed} ${answer.label}: ${answer.text.slice(0, 300)}`).toEqual([]);
      }
  });

  it('keeps status, pagination, order, identifiers, filtered and sorted fields and links', () => {
    for (const [seed, answers] of varied)
      answers.forEach((answer, i) => {
        const before = plain[i];
        const where = `seed ${seed} ${answer.label}`;
        expect(answer.status, where).toBe(before.status);
        if (!isRecord(before.body)) return;
        // The pagination numbers as they were (an undeclared field beside them is legal).
        if (isRecord(before.body.pagination))
          expect((answer.body as Record<string, unknown>).pagination, where).toMatchObject(
            before.body.pagination,
          );
        const records = recordsOf(answer.body);
        const originals = recordsOf(before.body);
        expect(records.length, where).toBe(originals.length);
        records.forEach((record, r) => {
          const original = originals[r] as Record<string, unknown>;
          for (const name of Object.keys(original))
            if (kept.has(name))
              expect((record as Record<string, unknown>)[name], `${where} /${r}/${name}`).toEqual(
                original[name],
              );
        });
        for (const link of links(answer.body))
          expect(links(before.body).has(link), `${where}: ${link}`).toBe(true);
      });
  });

  it('varies every JSON answer, and names each edit in x-mock-variation', () => {
    const kinds = new Set<EditKind>();
    for (const [seed, answers] of varied)
      answers.forEach((answer, i) => {
        if (answer.body === undefined) {
          expect(answer.headers.get(VARIATION_HEADER), answer.label).toBeNull();
          return;
        }
        expect(answer.text, `seed ${seed} ${answer.label}`).not.toBe(plain[i].text);
        const header = parseVariationHeader(answer.headers.get(VARIATION_HEADER) ?? '');
        expect(header.seed).toBe(seed);
        expect(header.edits.length).toBeGreaterThan(0);
        header.edits.forEach((edit) => kinds.add(edit.kind));
      });
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        'absent',
        'empty',
        'long',
        'min-length',
        'non-ascii',
        'null',
        'undeclared',
      ]),
    );
  });

  it('gives the same bytes for the same seed and request, from a fresh app and from its caches', async () => {
    const again = await exchanges(await testApp({ apiVersion: release, vary: { seed: 1 } }));
    const twice = await exchanges(await testApp({ apiVersion: release, vary: { seed: 1 } }));
    const cached = await exchanges(
      await testApp({ apiVersion: release, vary: { seed: 1 } }).then(async (app) => {
        await exchanges(app);
        return app;
      }),
    );
    const first = varied.get(1)!;
    for (const runs of [again, twice, cached])
      runs.forEach((answer, i) => {
        expect(answer.text, answer.label).toBe(first[i].text);
        expect(answer.headers.get(VARIATION_HEADER), answer.label).toBe(
          first[i].headers.get(VARIATION_HEADER),
        );
      });
  });

  it('gives another variation for another seed', () => {
    const one = varied.get(1)!;
    const two = varied.get(2)!;
    const differing = one.filter(
      (answer, i) => answer.body !== undefined && answer.text !== two[i].text,
    );
    expect(differing.length).toBeGreaterThan(one.filter((a) => a.body !== undefined).length / 2);
  });
});

describe('without --vary', () => {
  it('answers the dataset as it is, with no x-mock-variation', async () => {
    const app = await testApp({});
    const answers = await exchanges(app);
    for (const answer of answers) {
      expect(answer.headers.get(VARIATION_HEADER), answer.label).toBeNull();
      if (isRecord(answer.body)) expect(answer.text).not.toContain('mockUndeclared');
    }
  });
});
