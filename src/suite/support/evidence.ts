/**
 * @module support/evidence
 * The suite's share of the observed profile (src/evidence): every answer the client hands back is
 * folded into the context's profile, with the fields the document does not declare named so that
 * none of their personal-looking values is kept. Answers the suite asked the mock to fake
 * (`Prefer: code=NNN`) are not evidence of what the service does and are left out. Each test takes
 * what was observed since the last one into its meta; the reporter merges them into profile.json.
 */
import { BASE_PATH, type Contract } from '../../contract/index.js';
import { undeclaredPatterns } from '../../evidence/index.js';
import { observe, paramsOf, parseExample } from '../../evidence/index.js';
import { emptyProfile, type Profile } from '../../evidence/index.js';
import type { Drift } from '../../evidence/index.js';
import { curlOf, type TargetExchange, type RequestSpec } from './client.js';
import type { Finding } from './findings.js';

/** The path of a request below the API's base path (an href elsewhere keeps its whole path). */
function pathBelowBase(url: URL): string {
  const at = url.pathname.indexOf(BASE_PATH);
  return at === -1 ? url.pathname : url.pathname.slice(at + BASE_PATH.length) || '/';
}

/** Folds one answer into `profile`. */
export function observeExchange(
  profile: Profile,
  contract: Contract,
  exchange: TargetExchange,
  secrets: readonly string[],
  baseUrl: string,
): void {
  const { spec } = exchange;
  if (spec.headers?.prefer !== undefined) return;
  const url = new URL(exchange.url);
  const query = [...url.searchParams.entries()];
  const op = contract.operations.find((o) => o.operationId === spec.operationId);
  observe(
    profile,
    {
      operationId: spec.operationId,
      method: spec.method,
      path: pathBelowBase(url),
      query,
      params: paramsOf(query, spec.body),
      requestBody: spec.body,
      status: exchange.status,
      headers: exchange.headers,
      mediaType: exchange.mediaType,
      body: exchange.json,
      undeclared: () => undeclaredPatterns(op, exchange.status, exchange.json),
    },
    { secrets, origins: [new URL(baseUrl).origin] },
  );
}

/** What was observed since the last call, and a fresh profile in its place. */
export function takeObserved(holder: { profile: Profile }): Profile {
  const taken = holder.profile;
  holder.profile = emptyProfile(taken.bounds);
  return taken;
}

/**
 * Drift against the baseline's profile as findings of the run (rule `drift.<kind>`), each with
 * then and tonight, and a curl line for the request that shows it (on the target of tonight).
 */
export function driftFindings(drifts: readonly Drift[], baseUrl: string): Finding[] {
  return drifts.map((d) => {
    const example = d.example === undefined ? undefined : parseExample(d.example);
    const method = example?.method ?? '-';
    const url = `${baseUrl}${example?.path ?? ''}`;
    const spec: RequestSpec = {
      operationId: d.operationId,
      method: method === 'POST' || method === 'HEAD' ? method : 'GET',
      url,
    };
    return {
      severity: d.severity,
      rule: `drift.${d.kind}`,
      operationId: d.operationId,
      method,
      url,
      status: d.status === undefined ? undefined : Number(d.status),
      pointer: d.pointer,
      expected: d.before,
      actual: d.after,
      change: { then: d.before, now: d.after },
      message: d.message,
      curl: example ? curlOf(url, spec, example.body) : undefined,
      baseline: 'new',
    };
  });
}
