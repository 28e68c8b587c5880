/**
 * @module checks/hrefs
 * Every `href` in sampled records resolves: a relative href is relative to the base URL; an
 * absolute one must lie under the API's base path, and is followed on the target (a port-forward,
 * gateway or CDN between suite and service is normal: which origin the hrefs name is said in one
 * warning per run, and checked only when `CONTRACT_PUBLIC_BASE_URL` states it); no raw `#`
 * (identifiers are percent-encoded); the path names an operation of the document; and GET on it
 * answers 200 with that operation's body.
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
/** Why a foreign origin in absolute hrefs is only a warning. */
const ORIGIN_ASSUMPTION =
  'the source allows relative hrefs and absolute URLs "on the base address"; the address the suite was given may be a port-forward, gateway or CDN in front of it (set CONTRACT_PUBLIC_BASE_URL to check the origin)';

interface Href {
  value: string;
  pointer: string;
  from: Operation;
}

function collect(value: Json, pointer: string, from: Operation, out: Href[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => collect(v, `${pointer}/${i}`, from, out));
  else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'href' && typeof v === 'string')
        out.push({ value: v, pointer: `${pointer}/${k}`, from });
      else collect(v, `${pointer}/${k}`, from, out);
    }
  }
}

/** The GET operation whose path template matches a raw path below the base URL. */
export function operationForPath(
  ops: readonly Operation[],
  rawPath: string,
): Operation | undefined {
  const segments = rawPath.split('/');
  const candidates = ops.filter(
    (op) => op.method === 'get' && op.path.split('/').length === segments.length,
  );
  const score = (op: Operation) => op.path.split('/').filter((s) => !s.startsWith('{')).length;
  return candidates
    .filter((op) => op.path.split('/').every((s, i) => s.startsWith('{') || s === segments[i]))
    .sort((a, b) => score(b) - score(a))[0];
}

/**
 * Where an absolute href leads on the target: its path and query below the base path, resolved
 * against the target's base URL. Undefined when the href is not under the base path (or, with a
 * public base URL given, not on it).
 */
export function resolveOnTarget(
  href: string,
  targetBase: string,
  publicBase: string | undefined,
): string | undefined {
  const url = new URL(href);
  if (publicBase)
    return href.startsWith(`${publicBase}/`)
      ? `${targetBase}${href.slice(publicBase.length)}`
      : undefined;
  const basePath = new URL(targetBase).pathname;
  if (!url.pathname.startsWith(`${basePath}/`)) return undefined;
  return `${targetBase}${url.pathname.slice(basePath.length)}${url.search}`;
}

export const checkHrefs: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const base = ctx.client.baseUrl;
  const publicBase = ctx.options.publicBaseUrl;
  const foreignOrigins = new Set<string>();
  const hrefs: Href[] = [];
  for (const op of listOperations(ctx.contract, scope))
    collect(await firstPage(probe, op), '/data', op, hrefs);
  for (const op of byIdOperations(ctx.contract, scope).filter((o) => o.method === 'get')) {
    const spec = await successRequest(probe, op);
    if (spec) collect((await probe.cached(op, spec)).json, '', op, hrefs);
  }
  const perTarget = new Map<string, number>();
  let followed = 0;
  for (const href of hrefs) {
    const fail = (rule: string, expected: string, message: string) =>
      probe.addOperationFinding(href.from, {
        severity: 'failure',
        rule,
        expected,
        actual: `${show(href.value)} at ${href.pointer}`,
        message,
      });
    if (href.value.includes('#')) {
      fail(
        'href-encoding',
        'identifiers percent-encoded in hrefs (`#` as %23)',
        `href carries a raw "#"`,
      );
      continue;
    }
    let url: string;
    if (href.value.startsWith('/')) url = `${base}${href.value}`;
    else if (/^https?:\/\//.test(href.value)) {
      const onTarget = resolveOnTarget(href.value, base, publicBase);
      if (onTarget === undefined) {
        fail(
          'href-off-base',
          publicBase
            ? `an absolute href on CONTRACT_PUBLIC_BASE_URL ${publicBase}`
            : `an absolute href under the API base path ${new URL(base).pathname}`,
          'absolute href points outside the base URL',
        );
        continue;
      }
      if (!publicBase && new URL(href.value).origin !== new URL(base).origin)
        foreignOrigins.add(new URL(href.value).origin);
      url = onTarget;
    } else {
      fail(
        'href-form',
        'a path starting with / (relative to the base URL) or an absolute URL on it',
        'href is neither',
      );
      continue;
    }
    const rawPath = new URL(url).pathname.slice(new URL(base).pathname.length);
    const target = operationForPath(ctx.contract.operations, rawPath);
    if (!target) {
      fail(
        'href-unknown-path',
        'a path of an operation in the document',
        `href path ${rawPath} matches no operation`,
      );
      continue;
    }
    const used = perTarget.get(target.operationId) ?? 0;
    if (used >= PER_TARGET || followed >= MAX_FOLLOWED) continue;
    perTarget.set(target.operationId, used + 1);
    followed++;
    await probe.call(target, {
      url,
      expectStatus: [200],
      statusRule: 'href-resolves',
      statusSource: 'documented',
    });
  }
  if (foreignOrigins.size > 0 && !ctx.once.has('href-origin')) {
    ctx.once.add('href-origin');
    const origins = [...foreignOrigins].join(', ');
    // Said once per worker, by whichever family's file a worker runs first; named on the document's
    // first operation whatever the scope, so a baseline knows it again whichever files said it.
    probe.addOperationFinding(ctx.contract.operations[0], {
      severity: 'warning',
      rule: 'href-origin',
      source: 'documented',
      expected: `absolute hrefs on the target's origin ${new URL(base).origin}, or on CONTRACT_PUBLIC_BASE_URL`,
      actual: origins,
      message: `absolute hrefs name the origin ${origins}, not the target's; followed on the target (said once per run)`,
      assumption: ORIGIN_ASSUMPTION,
    });
  }
  return probe.result();
};
