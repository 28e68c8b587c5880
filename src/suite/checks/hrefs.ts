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
import { collectHrefs, judgeHref, type FoundHref, type Operation } from '../../contract/index.js';
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { firstPage, successRequest } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { byIdOperations, listOperations } from '../support/records.js';

/** Hrefs followed per target operation, and overall: enough to catch a broken link builder. */
const PER_TARGET = 2;
const MAX_FOLLOWED = 40;
/** Why a foreign origin in absolute hrefs is only a warning. */
const ORIGIN_ASSUMPTION =
  'the source allows relative hrefs and absolute URLs "on the base address"; the address the suite was given may be a port-forward, gateway or CDN in front of it (set CONTRACT_PUBLIC_BASE_URL to check the origin)';

interface Href extends FoundHref {
  from: Operation;
}

export const checkHrefs: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const base = ctx.client.baseUrl;
  const publicBase = ctx.options.publicBaseUrl;
  const foreignOrigins = new Set<string>();
  const hrefs: Href[] = [];
  for (const op of listOperations(ctx.contract, scope))
    for (const h of collectHrefs(await firstPage(probe, op), '/data'))
      hrefs.push({ ...h, from: op });
  for (const op of byIdOperations(ctx.contract, scope).filter((o) => o.method === 'get')) {
    const spec = await successRequest(probe, op);
    if (spec)
      for (const h of collectHrefs((await probe.cached(op, spec)).json))
        hrefs.push({ ...h, from: op });
  }
  const perTarget = new Map<string, number>();
  let followed = 0;
  for (const href of hrefs) {
    // The href's form and path: the same judgement the mock gives a stub's or a record's hrefs.
    const judged = judgeHref(href, ctx.contract.operations, base, publicBase);
    if ('judgement' in judged) {
      const j = judged.judgement;
      probe.addOperationFinding(href.from, {
        severity: 'failure',
        rule: j.rule,
        expected: j.expected,
        actual: `${show(href.value)} at ${href.pointer}`,
        message: j.message,
      });
      continue;
    }
    const { url, target } = judged;
    if (judged.foreignOrigin) foreignOrigins.add(judged.foreignOrigin);
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
