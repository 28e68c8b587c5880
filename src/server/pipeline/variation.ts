/**
 * @module pipeline/variation
 * The variation step of a route (`--vary <seed>`): after the handler (or auth, the rate limiter, a
 * QA control) built the answer and before the response check and delivery see it, a JSON answer
 * the document declares is varied as its schema allows (`edits.ts`), seeded by the variation seed
 * and the request (method, path and query, body; never the key), and named in `x-mock-variation`.
 * The handlers' caches hold the unvaried bytes: the step parses a copy and builds a new response.
 * Mounted only when variation is on, so it costs nothing when off.
 */
import { createHash } from 'node:crypto';
import {
  declaredResponse,
  isJsonMediaType,
  mediaTypeOf,
  type Contract,
} from '../../contract/index.js';
import { seededRandom } from '../../dataset/mulberry32.js';
import type { Step } from './chain.js';
import { splitUrl } from './query-string.js';
import { bytesResponse } from '../response.js';
import { varyBody } from '../vary/edits.js';
import { variationHeader, VARIATION_HEADER } from '../vary/header.js';
import { keptFields } from '../vary/kept.js';

export interface VaryOptions {
  /** Same seed and request, same bytes; another seed, another variation. */
  seed: number;
}

/** The largest variation seed (the seeds are 32-bit, like the generator's). */
export const MAX_VARY_SEED = 0xffff_ffff;

/**
 * What is wrong with a variation seed (an integer from 0 to `MAX_VARY_SEED`), or undefined;
 * `shown` is the value as the user gave it.
 */
export function varySeedProblem(seed: unknown, shown: string): string | undefined {
  return Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) <= MAX_VARY_SEED
    ? undefined
    : `must be an integer from 0 to ${MAX_VARY_SEED} (got ${shown})`;
}

/** The generator's seed for one request: the variation seed and the request, hashed together. */
function requestSeed(seed: number, method: string, url: string, body: string): number {
  const { rawPath, search } = splitUrl(url);
  return createHash('sha256')
    .update(`${seed}\n${method}\n${rawPath}${search}\n${body}`)
    .digest()
    .readUInt32BE(0);
}

export function variation(options: VaryOptions & { contract: Contract }): Step {
  const { seed } = options;
  const problem = varySeedProblem(seed, String(seed));
  if (problem) throw new TypeError(`vary.seed ${problem}`);
  const kept = keptFields(options.contract.operations);
  return async function varyAnswer(c, next) {
    await next();
    const operation = c.get('operation');
    const res = c.res;
    const method = c.req.method;
    // A stub's answer is the one the test asked for: varying it would undo the test's own choice.
    if (!operation || method === 'HEAD' || c.get('stub')) return;
    const schema = declaredResponse(operation, res.status)?.jsonSchema;
    const contentType = res.headers.get('content-type');
    if (!schema || !res.body || !isJsonMediaType(mediaTypeOf(contentType))) return;
    const text = await res.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      // Not JSON after all: the response check's business, not ours; sent as it is.
      if (error instanceof SyntaxError) return;
      throw error;
    }
    const random = seededRandom(requestSeed(seed, method, c.req.url, c.get('bodyText') ?? ''));
    const edits = varyBody(schema, body, { kept, random });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-type') headers[name] = value;
    });
    headers[VARIATION_HEADER] = variationHeader(seed, edits);
    // Unset first: Hono's setter would copy the old response's headers (its content-length) over the new.
    c.res = undefined;
    c.res = bytesResponse(res.status, JSON.stringify(body), contentType!, headers);
  };
}
