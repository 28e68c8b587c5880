/**
 * @module checks/cross-reference-matches
 * The cross-reference seen matching, not only missing: competitor numbers the target is known to
 * match (`CONTRACT_XREF_NUMBERS`; against the suite's own mock, read from its `/examples.json`),
 * plus one number nobody knows and a repeat, in one request. One entry per input in request order
 * (reference), each naming its input (`partNumber`); the known numbers find matches; every match is
 * held to the document (its documented fields, the match-type enum) by the probe; the first match's
 * part resolves. Without known numbers the check says so instead of passing silently.
 */
import { operationForPath, resolveOnTarget, type Operation } from '../../contract/index.js';
import type { TargetExchange } from '../support/client.js';
import { applicable, type Check, type CheckContext } from '../support/context.js';
import { show } from '../support/findings.js';
import { seededTokens } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { inScope, isRecord, scopeName, type Json } from '../support/records.js';
import { boundedLists } from './cross-reference.js';

/** Where the mock lists inputs that work against it (outside the API's base path; no key). */
const EXAMPLES_PATH = '/examples.json';
/** The entry's member naming its input, and its matches (the reference's names). */
const ENTRY = { input: 'partNumber', matches: 'results' } as const;

/** Known competitor numbers: the option, else (the suite's own mock only) the mock's examples. */
async function knownNumbers(ctx: CheckContext): Promise<string[] | undefined> {
  if (ctx.options.xrefNumbers?.length) return ctx.options.xrefNumbers;
  if (ctx.options.target !== 'mock') return undefined;
  const url = new URL(EXAMPLES_PATH, ctx.client.baseUrl).href;
  const ex = await ctx.client.send({ operationId: 'examples', method: 'GET', url, auth: 'none' });
  const xref =
    isRecord(ex.json) && isRecord(ex.json.crossReference) ? ex.json.crossReference : undefined;
  const byType = xref && isRecord(xref.byMatchType) ? Object.values(xref.byMatchType) : [];
  const numbers = byType
    .map((m) => (isRecord(m) ? m.partNumber : undefined))
    .filter((n): n is string => typeof n === 'string');
  return numbers.length ? [...new Set(numbers)] : undefined;
}

/** One entry per input, in request order, each naming its input. */
function checkEntries(
  probe: Probe,
  op: Operation,
  ex: TargetExchange,
  data: Json[],
  inputs: string[],
): void {
  if (data.length !== inputs.length) {
    probe.add(op, ex, {
      rule: 'cross-reference-entries',
      source: op.source,
      pointer: '/data',
      expected: `${inputs.length} entries, one per input`,
      actual: String(data.length),
      message: 'not one entry per input',
    });
  }
  data.forEach((entry, i) => {
    const input = isRecord(entry) ? entry[ENTRY.input] : undefined;
    if (
      i < inputs.length &&
      typeof input === 'string' &&
      input.toLowerCase() !== inputs[i].toLowerCase()
    ) {
      probe.add(op, ex, {
        rule: 'cross-reference-order',
        source: op.source,
        pointer: `/data/${i}/${ENTRY.input}`,
        expected: `${show(inputs[i])} (request order)`,
        actual: show(input),
        message: 'entries are not in request order',
      });
    }
  });
}

/** The matches of the first `count` entries (those of the known numbers). */
function matchesOf(data: Json[], count: number): Json[] {
  return data
    .slice(0, count)
    .flatMap((entry) =>
      isRecord(entry) && Array.isArray(entry[ENTRY.matches])
        ? (entry[ENTRY.matches] as Json[])
        : [],
    );
}

/** The first match's part resolves on the target. */
async function checkFirstMatchResolves(
  probe: Probe,
  ctx: CheckContext,
  matched: Json[],
): Promise<void> {
  const href = matched
    .map((m) => (isRecord(m) ? m.href : undefined))
    .find((h): h is string => typeof h === 'string');
  if (!href) return;
  const url = href.startsWith('/')
    ? `${ctx.client.baseUrl}${href}`
    : resolveOnTarget(href, ctx.client.baseUrl, ctx.options.publicBaseUrl);
  const target =
    url &&
    operationForPath(
      ctx.contract.operations,
      new URL(url).pathname.slice(new URL(ctx.client.baseUrl).pathname.length),
    );
  if (url && target)
    await probe.call(target, {
      url,
      expectStatus: [200],
      statusRule: 'href-resolves',
      statusSource: 'documented',
    });
}

/** The known numbers, one nobody knows and a repeat, in one request to `op`. */
async function checkMatching(
  probe: Probe,
  ctx: CheckContext,
  op: Operation,
  known: string[],
): Promise<void> {
  const [{ name }] = boundedLists(op.requestBody!.schema);
  const [unknown] = seededTokens(ctx.options.seed, 'CONTRACT-NOMATCH', 1);
  const inputs = [...known, unknown, known[0]];
  const ex = await probe.call(op, {
    body: { [name]: inputs },
    expectStatus: [200],
    statusRule: 'cross-reference',
  });
  const data: Json[] = isRecord(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : [];
  if (ex.status !== 200) return;
  checkEntries(probe, op, ex, data, inputs);
  const matched = matchesOf(data, known.length);
  if (matched.length === 0) {
    probe.add(op, ex, {
      rule: 'cross-reference-matches',
      source: op.source,
      pointer: '/data',
      expected: `matches for the known numbers ${show(known)}`,
      actual: 'no matches',
      message: 'numbers known to match found nothing',
    });
    return;
  }
  await checkFirstMatchResolves(probe, ctx, matched);
}

export const checkCrossReferenceMatches: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const matching = ctx.contract.operations.filter(
    (o) => o.requestBody && inScope(o, scope) && boundedLists(o.requestBody.schema).length === 1,
  );
  for (const op of applicable(
    matching,
    `no request body of one bounded list in ${scopeName(scope)}`,
  )) {
    const known = await knownNumbers(ctx);
    if (!known) {
      probe.skip(
        op,
        'cross-reference matches',
        'no competitor numbers known to match (set CONTRACT_XREF_NUMBERS); only unmatched numbers were sent',
      );
      continue;
    }
    await checkMatching(probe, ctx, op, known);
  }
  return probe.result();
};
