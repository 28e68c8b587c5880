/**
 * @module stubs/stubs
 * The stub step of the request line, after the input is read and checked and the faults are
 * decided: the newest stub that matches (taken once across every instance sharing the store)
 * answers instead of the dataset: its whole answer (`respond`), or the dataset's answer with its
 * patch applied. The answer was judged against the contract when the stub was added (unless it is
 * unchecked); the request is marked with the stub's id for the journal, and the self-check leaves
 * a stub's answer alone (it was judged already, and an unchecked one is meant to break rules).
 */
import type { Context, Next } from 'hono';
import type { StubsStore } from '../../state/stubs/store.js';
import type { Stub } from '../../state/stubs/stubs.js';
import type { Step } from '../pipeline/chain.js';
import { headersOut, respond } from '../pipeline/dispatch.js';
import type { AppEnv } from '../env.js';
import { jsonResponse } from '../response.js';
import type { Validators } from '../../contract/index.js';
import { applyPatch, PatchError } from './json-patch.js';
import { judgeAnswer, JSON_TYPE } from './answer-judge.js';
import { MIN_STUB_STATUS } from './stub-request.js';
import { matchFactsOf } from './request-facts.js';

/** Headers a rewritten body must not carry over from the dataset's answer. */
const BODY_HEADERS = new Set(['content-length', 'content-type', 'etag']);

/** What the judge says of an answer to this very request (its identifiers, its page, its headers). */
function refusalsHere(
  c: Context<AppEnv>,
  validators: Validators,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  handMadeHeaders?: Record<string, string>,
): string[] {
  const input = c.get('input');
  return judgeAnswer(
    validators,
    c.get('operation'),
    { status, body, headers },
    {
      request: { params: input.path, query: input.query, body: c.get('body') },
      ...(handMadeHeaders ? { handMadeHeaders } : {}),
    },
  ).refusals;
}

/**
 * The dataset's answer with the stub's patch applied, judged again on this very answer: a patch
 * that cannot apply here (a JSON Patch `test` that fails, a path this record lacks) or whose result
 * breaks a documented or reference fact leaves the dataset's answer as it is, and the journal
 * says why (`stubSkipped`): a stub never makes the double send what the service cannot.
 */
async function patched(
  c: Context<AppEnv>,
  stub: Stub,
  next: Next,
  validators: Validators,
): Promise<void> {
  await next();
  const res = c.res;
  let body: unknown;
  try {
    body = JSON.parse(await res.clone().text()) as unknown;
  } catch {
    return; // not JSON (a file): nothing a patch can apply to
  }
  let result: unknown;
  try {
    result = applyPatch(body, stub.patch);
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    c.set('stub', {
      id: stub.id,
      unchecked: false,
      skipped: `the patch does not apply: ${error.message}`,
    });
    return;
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!BODY_HEADERS.has(name)) headers[name] = value;
  });
  if (!stub.unchecked) {
    const refusals = refusalsHere(c, validators, res.status, result, {
      ...headers,
      'content-type': JSON_TYPE,
    });
    if (refusals.length > 0) {
      c.set('stub', { id: stub.id, unchecked: false, skipped: refusals.join('; ') });
      return;
    }
  }
  // Cleared first: Hono copies the old response's headers (its content-length too) onto a new one.
  c.res = undefined;
  c.res = jsonResponse(res.status, result, headers);
}

export function stubs(options: {
  store: Pick<StubsStore, 'mayHaveStubs' | 'take'>;
  validators: Validators;
}): Step {
  const { store, validators } = options;
  async function answer(c: Context<AppEnv>, next: Next): Promise<Response | void> {
    const stub = await store.take(matchFactsOf(c));
    if (!stub) return next();
    c.set('stub', { id: stub.id, unchecked: stub.unchecked === true });
    if (stub.patch !== undefined) return patched(c, stub, next, validators);
    const { status, body, headers = {} } = stub.respond!;
    // A 1xx is no answer (one kept before this rule, or read from a shared store): never sent.
    if (!(status >= MIN_STUB_STATUS && status <= 599)) {
      c.set('stub', {
        id: stub.id,
        unchecked: stub.unchecked === true,
        skipped: `status ${status} is not a final answer`,
      });
      return next();
    }
    if (!stub.unchecked) {
      // Judged again on this request: its identifiers, its page, the rate-limit headers it goes out with.
      const refusals = refusalsHere(
        c,
        validators,
        status,
        body,
        { 'content-type': JSON_TYPE, ...headersOut(c, status, headers) },
        headers,
      );
      if (refusals.length > 0) {
        c.set('stub', { id: stub.id, unchecked: false, skipped: refusals.join('; ') });
        return next();
      }
    }
    return respond(c, {
      status,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  return function answerFromStub(c: Context<AppEnv>, next: Next) {
    // The common case, without an async turn: no stub kept anywhere.
    if (!store.mayHaveStubs()) return next();
    return answer(c, next);
  };
}
