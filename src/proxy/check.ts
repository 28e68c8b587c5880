/**
 * @module proxy/check
 * Judges one live response with the shared `checkResponse` (src/contract/check-response.ts),
 * undeclared fields included (as warnings). The proxy's own part: values cut to a loggable length.
 */
import {
  checkResponse,
  sampleOf,
  type Operation,
  type ResponseBody,
  type ResponseFinding,
  type Validators,
} from '../contract/index.js';

/** Findings as the proxy logs, counts and records them: `actual` already cut to a readable length. */
export function checkLiveResponse(
  validators: Validators,
  op: Operation,
  live: { method: string; status: number; headers: Headers; body: ResponseBody },
): ResponseFinding[] {
  const findings = checkResponse(
    validators,
    op,
    {
      method: live.method,
      status: live.status,
      header: (name) => live.headers.get(name),
      body: live.body,
    },
    { undeclaredFields: true },
  );
  return findings.map((f) => ({ ...f, actual: sampleOf(f.actual) }));
}
