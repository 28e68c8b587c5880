/**
 * @module pipeline/read-body
 * Reads a POST body once, at most `maxBytes` and within `timeoutMs`, and leaves its text for
 * input validation (the API's POSTs) or returns it (`readBodyText`, the admin API's). Over HTTP it
 * reads Node's request stream directly, without wrapping it in a web Request and stream first
 * (what `c.req.text()` and Hono's body limit do; a large share of a POST, see bench/README.md).
 * In-process calls (`app.request`), and a body an earlier step already read, go through Hono's body
 * limit and the web Request.
 * Over the limit: the error from `tooLarge()` (413, connection closed), before reading anything
 * when Content-Length already says so, else as soon as the bytes read pass it (nothing more is
 * kept); the server drains or closes what is left. Not all there within `timeoutMs` (a body that
 * never ends would otherwise hold the key's concurrency slot until Node's own request timeout,
 * about 330 s): the error from `tooSlow()` (400, connection closed). A client that closes the
 * connection before its body is in: `ClientGoneError` (logged as 499, no stack: not our failure).
 * Bytes that are not UTF-8 are decoded with replacements, as `Request.text()` does, and the
 * first bad byte's offset is left in `bodyNotUtf8At` for validation to name.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, Env } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from '../env.js';
import { ClientGoneError } from '../errors.js';

/** How long a request body may take to arrive, from the moment it is read (see DECISIONS.md). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

export interface BodyBounds {
  maxBytes: number;
  tooLarge: () => Error;
  timeoutMs: number;
  tooSlow: () => Error;
}

export interface BodyText {
  text: string;
  /** Offset of the first byte that is not UTF-8 (the text has U+FFFD there), when there is one. */
  notUtf8At?: number;
}

/**
 * The offset of the first byte that cannot start or continue valid UTF-8: the longest prefix that
 * still decodes (an unfinished sequence at its end allowed) is found by bisection, only for a body
 * already known to be bad.
 */
function firstBadByte(bytes: Uint8Array): number {
  const decodes = (n: number) => {
    try {
      // A new decoder each time: flushing one that holds an unfinished sequence throws.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let good = 0;
  let bad = bytes.length;
  if (decodes(bad)) return bad; // only an unfinished sequence at the very end
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    if (decodes(mid)) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

/** Decodes like `Request.text()`: UTF-8, bad bytes replaced, a leading BOM dropped (Buffer's decoder is the faster one). */
function decodeUtf8(bytes: Buffer): BodyText {
  const raw = bytes.toString('utf8');
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  return isUtf8(bytes) ? { text } : { text, notUtf8At: firstBadByte(bytes) };
}

/** The body's text, within the bounds (see the module comment for what each overstep throws). */
export async function readBodyText<E extends Env>(
  c: Context<E, string>,
  bounds: BodyBounds,
): Promise<BodyText> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  // An earlier step (the replay of recordings) may have read the body through the web Request already.
  const alreadyRead = Object.keys(c.req.bodyCache).length > 0 || incoming?.readableEnded === true;
  if (incoming && !alreadyRead) return readIncoming(incoming, bounds);
  let read: BodyText | undefined;
  await bodyLimit({
    maxSize: bounds.maxBytes,
    onError: () => {
      throw bounds.tooLarge();
    },
  })(c, async () => {
    read = decodeUtf8(Buffer.from(await c.req.arrayBuffer()));
  });
  return read!;
}

/** The API's POST step: the body's text in `bodyText` (and `bodyNotUtf8At`) for validation. */
export function bodyReader(bounds: BodyBounds) {
  return createMiddleware<AppEnv>(async function readRequestBody(c, next) {
    const { text, notUtf8At } = await readBodyText(c, bounds);
    c.set('bodyText', text);
    if (notUtf8At !== undefined) c.set('bodyNotUtf8At', notUtf8At);
    await next();
  });
}

function readIncoming(incoming: IncomingMessage, bounds: BodyBounds): Promise<BodyText> {
  const { maxBytes, tooLarge, timeoutMs, tooSlow } = bounds;
  const declared = incoming.headers['content-length'];
  if (
    declared !== undefined &&
    incoming.headers['transfer-encoding'] === undefined &&
    Number(declared) > maxBytes
  )
    return Promise.reject(tooLarge());
  // The listeners are anonymous and stay until the request ends: under tsx (which keeps function
  // names) a named closure made per request costs a share of a POST (bench/README.md).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks.length = 0;
      reject(error);
    };
    const timer = setTimeout(() => fail(tooSlow()), timeoutMs);
    incoming.on('data', (chunk: Buffer) => {
      // Refused already: what is still coming is dropped (the answer closes the connection).
      if (settled) return;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else fail(tooLarge());
    });
    incoming.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(decodeUtf8(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    });
    // Node reports a client that closed mid-body as an 'aborted' error; a close without 'end' is the
    // same. Every request closes once answered: the error (and its stack) is made only when it is one.
    for (const event of ['error', 'close'])
      incoming.on(event, () => {
        if (!settled) fail(new ClientGoneError(size, declared));
      });
  });
}
