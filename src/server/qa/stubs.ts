/**
 * @module qa/stubs
 * The stub step of the request line, after the input is read and checked and the faults are
 * decided: the newest stub that matches (taken once across every instance sharing the store)
 * answers instead of the dataset: its whole answer (`respond`), or the dataset's answer with its
 * patch applied. The answer was judged against the contract when the stub was added (unless it is
 * unchecked); the request is marked with the stub's id for the journal, and the self-check leaves
 * a stub's answer alone (it was judged already, and an unchecked one is meant to break rules).
 */
import type { Context, Next } from 'hono';
import type { StateStore } from '../../state/store.js';
import type { Stub } from '../../state/stubs.js';
import type { Step } from '../chain.js';
import type { AppEnv } from '../env.js';
import { jsonResponse } from '../response.js';
import { applyPatch } from './json-patch.js';
import { matchFactsOf } from './request-facts.js';

/** Headers a rewritten body must not carry over from the dataset's answer. */
const BODY_HEADERS = new Set(['content-length', 'content-type', 'etag']);

async function patched(c: Context<AppEnv>, stub: Stub, next: Next): Promise<void> {
  await next();
  const res = c.res;
  let body: unknown;
  try {
    body = JSON.parse(await res.clone().text()) as unknown;
  } catch {
    return; // not JSON (a file): nothing a patch can apply to
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!BODY_HEADERS.has(name)) headers[name] = value;
  });
  // Cleared first: Hono copies the old response's headers (its content-length too) onto a new one.
  c.res = undefined;
  c.res = jsonResponse(res.status, applyPatch(body, stub.patch), headers);
}

export function stubs(options: { store: Pick<StateStore, 'mayHaveStubs' | 'takeStub'> }): Step {
  const { store } = options;
  async function answer(c: Context<AppEnv>, next: Next): Promise<Response | void> {
    const stub = await store.takeStub(matchFactsOf(c));
    if (!stub) return next();
    c.set('stub', { id: stub.id, unchecked: stub.unchecked === true });
    if (stub.patch !== undefined) return patched(c, stub, next);
    const { status, body, headers = {} } = stub.respond!;
    const ok = status >= 200 && status < 300;
    const all = { ...(ok ? c.get('rateLimitHeaders') : {}), ...headers };
    if (body === undefined) return new Response(null, { status, headers: all });
    return jsonResponse(status, body, all);
  }
  return function answerFromStub(c: Context<AppEnv>, next: Next) {
    // The common case, without an async turn: no stub kept anywhere.
    if (!store.mayHaveStubs()) return next();
    return answer(c, next);
  };
}
