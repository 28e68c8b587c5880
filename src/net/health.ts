/**
 * @module net/health
 * The liveness answer an orchestrator probes (a container's HEALTHCHECK, a Kubernetes probe, a
 * CI service container's health command): `GET /healthz` -> 200 `{"status":"ok"}`, for the mock
 * and the proxy alike. It needs no key and no admin token, is not rate limited, journaled, logged
 * or counted, and answers before the proxy's Host check: a probe names the container by whatever
 * address it has, and the answer tells nothing but that the process serves (spec/DECISIONS.md 81).
 * It is a fixed body built once, so a probe every few seconds costs next to nothing.
 */
export const HEALTH_PATH = '/healthz';

const BODY = '{"status":"ok"}';
const HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/** A fresh 200 `{"status":"ok"}` (a Response's body can be read only once). */
export function healthResponse(): Response {
  return new Response(BODY, { status: 200, headers: HEADERS });
}
