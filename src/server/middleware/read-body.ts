/**
 * @module middleware/read-body
 * Reads a POST body once, at most `maxBytes`, and leaves its text for input validation. Over HTTP
 * it reads Node's request stream directly, without wrapping it in a web Request and stream first
 * (what `c.req.text()` and Hono's body limit do; a large share of a POST, see bench/README.md).
 * In-process calls (`app.request`), and a body an earlier step already read, go through Hono's body
 * limit and `c.req.text()`.
 * Over the limit: the error from `tooLarge()` (413, connection closed), before reading anything
 * when Content-Length already says so; the server drains or closes what is left.
 */
import type { HttpBindings } from '@hono/node-server';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from '../env.js';

/** Decodes like `Request.text()`: UTF-8, bad bytes replaced, a leading BOM dropped (Buffer's decoder is the faster one). */
function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function bodyReader(options: { maxBytes: number; tooLarge: () => Error }) {
  const { maxBytes, tooLarge } = options;
  const viaRequest = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return createMiddleware<AppEnv>(async function readRequestBody(c, next) {
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    // An earlier step (the replay of recordings) may have read the body through the web Request already.
    const alreadyRead = Object.keys(c.req.bodyCache).length > 0 || incoming?.readableEnded === true;
    if (!incoming || alreadyRead) {
      return viaRequest(c, async () => {
        c.set('bodyText', await c.req.text());
        await next();
      });
    }
    c.set('bodyText', await readIncoming(incoming, maxBytes, tooLarge));
    await next();
  });
}

function readIncoming(
  incoming: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
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
    incoming.on('data', (chunk: Buffer) => {
      // Over the limit already: what is still coming is dropped (the 413 closes the connection).
      if (size > maxBytes) return;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        chunks.length = 0;
        reject(tooLarge());
      }
    });
    incoming.on('end', () => {
      if (size <= maxBytes)
        resolve(decodeUtf8(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    });
    incoming.on('error', reject);
  });
}
