/**
 * @module checks/hrefs
 * Every `href` in sampled records resolves: a relative href is relative to the base URL, an
 * absolute one must be on the base URL, no raw `#` (identifiers are percent-encoded), the path
 * names an operation of the document, and GET on it answers 200 with that operation's body.
 * The sample is deterministic: records of each list's first page and each by-ID body, at most a few
 * hrefs per target operation.
 */
import type { Operation } from '../../src/contract/index.js';
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { firstPage, successRequest } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { byIdOperations, isRecord, listOperations, type Json } from '../support/records.js';

/** Hrefs followed per target operation, and overall: enough to catch a broken link builder. */
const PER_TARGET = 2;
const MAX_FOLLOWED = 40;

interface Href {
  value: string;
  pointer: string;
  from: Operation;
}

function collect(value: Json, pointer: string, from: Operation, out: Href[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => collect(v, `${pointer}/${i}`, from, out));
  else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'href' && typeof v === 'string') out.push({ value: v, pointer: `${pointer}/${k}`, from });
      else collect(v, `${pointer}/${k}`, from, out);
    }
  }
}

/** The GET operation whose path template matches a raw path below the base URL. */
export function operationForPath(ops: readonly Operation[], rawPath: string): Operation | undefined {
  const segments = rawPath.split('/');
  const candidates = ops.filter((op) => op.method === 'get' && op.path.split('/').length === segments.length);
  const score = (op: Operation) => op.path.split('/').filter((s) => !s.startsWith('{')).length;
  return candidates
    .filter((op) => op.path.split('/').every((s, i) => s.startsWith('{') || s === segments[i]))
    .sort((a, b) => score(b) - score(a))[0];
}

export const checkHrefs: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const base = ctx.client.baseUrl;
  const hrefs: Href[] = [];
  for (const op of listOperations(ctx.contract, scope)) collect(await firstPage(probe, op), '/data', op, hrefs);
  for (const op of byIdOperations(ctx.contract, scope).filter((o) => o.method === 'get')) {
    const spec = await successRequest(probe, op);
    if (spec) collect((await probe.cached(op, spec)).json, '', op, hrefs);
  }
  const perTarget = new Map<string, number>();
  let followed = 0;
  for (const href of hrefs) {
    const fail = (rule: string, expected: string, message: string) =>
      probe.note(href.from, { severity: 'failure', rule, expected, actual: `${show(href.value)} at ${href.pointer}`, message });
    if (href.value.includes('#')) {
      fail('href-encoding', 'identifiers percent-encoded in hrefs (`#` as %23)', `href carries a raw "#"`);
      continue;
    }
    let url: string;
    if (href.value.startsWith('/')) url = `${base}${href.value}`;
    else if (/^https?:\/\//.test(href.value)) {
      if (!href.value.startsWith(`${base}/`)) {
        fail('href-off-base', `an absolute href on the base URL ${base}`, 'absolute href points outside the base URL');
        continue;
      }
      url = href.value;
    } else {
      fail('href-form', 'a path starting with / (relative to the base URL) or an absolute URL on it', 'href is neither');
      continue;
    }
    const rawPath = new URL(url).pathname.slice(new URL(base).pathname.length);
    const target = operationForPath(ctx.contract.operations, rawPath);
    if (!target) {
      fail('href-unknown-path', 'a path of an operation in the document', `href path ${rawPath} matches no operation`);
      continue;
    }
    const used = perTarget.get(target.operationId) ?? 0;
    if (used >= PER_TARGET || followed >= MAX_FOLLOWED) continue;
    perTarget.set(target.operationId, used + 1);
    followed++;
    await probe.call(target, { url, expectStatus: [200], statusRule: 'href-resolves', statusSource: 'documented' });
  }
  return probe.result();
};
