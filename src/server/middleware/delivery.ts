/**
 * @module middleware/delivery
 * The outermost step of an API request: how the response's body leaves, and when it is done.
 * Over HTTP the body is written in bounded chunks, each only after the previous one was taken by
 * the socket, so a client that stops reading holds back the rest; a QA shape (cut short, dribbled)
 * is applied here, after the self-check saw the whole body. `onDelivered` (the rate limiter's slot
 * and transfer charge) is told the body bytes actually written once the response has been fully
 * written or its connection has closed, whichever comes first (a connection that closes while
 * the response is still being made, during a QA delay say, frees the slot then, charged nothing).
 * A HEAD writes no body bytes.
 */
import type { HttpBindings } from '@hono/node-server';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env.js';
import { SLOW_TICK_MS } from '../qa/actions.js';

/** A body larger than this is written chunk by chunk (smaller ones go to the socket in one write). */
export const DELIVERY_CHUNK_BYTES = 64 * 1024;

export interface BodyShape {
  /** Drop the connection without answering. */
  reset?: boolean;
  /** Send about half of the body, then drop the connection. */
  truncate?: boolean;
  /** Dribble the body out this many bytes per tick (SLOW_TICK_MS). */
  slowBytesPerTick?: number;
  /** Epoch ms (performance.now() scale) by which a dribbled body must have ended. */
  deadline?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes per tick so that `remaining` bytes end by `deadline`, never slower than asked. */
export function dribbleRate(requested: number, remaining: number, msLeft: number): number {
  const ticksLeft = Math.max(1, Math.floor(msLeft / SLOW_TICK_MS));
  return Math.max(requested, Math.ceil(remaining / ticksLeft));
}

/**
 * The body as a pull stream: a chunk is produced only when the writer asks for it (high-water mark
 * 0), so the count passed to `onProgress` is what the socket took; `ended` is true once the whole
 * (or, truncated, the first half of the) body has been written.
 */
function chunkedBody(bytes: Uint8Array, shape: BodyShape, onProgress: (written: number, ended: boolean) => void): ReadableStream<Uint8Array> {
  let offset = 0;
  let pending = 0;
  const stopAt = shape.truncate ? Math.floor(bytes.length / 2) : bytes.length;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Asked for the next chunk: the previous one has been written.
        offset += pending;
        pending = 0;
        onProgress(offset, false);
        if (offset >= stopAt) {
          onProgress(offset, true);
          if (shape.truncate) {
            // Let the headers and the first half reach the client before the connection drops.
            await sleep(SLOW_TICK_MS);
            controller.error(new Error('body truncated by a QA scenario'));
          } else controller.close();
          return;
        }
        let size = DELIVERY_CHUNK_BYTES;
        if (shape.slowBytesPerTick) {
          if (offset > 0) await sleep(SLOW_TICK_MS);
          size = shape.deadline === undefined ? shape.slowBytesPerTick : dribbleRate(shape.slowBytesPerTick, stopAt - offset, shape.deadline - performance.now());
        }
        pending = Math.min(size, stopAt - offset);
        controller.enqueue(bytes.subarray(offset, offset + pending));
      },
    },
    { highWaterMark: 0 },
  );
}

/** Drops the connection before anything is written; in-process callers get a body that fails to read. */
function dropConnection(env: Partial<HttpBindings> | undefined, res: Response): Response {
  if (env?.incoming) {
    env.incoming.socket.destroy();
    return new Response(null, { status: res.status });
  }
  const failing = new ReadableStream({ start: (controller) => controller.error(new Error('connection reset by a QA scenario')) });
  return new Response(failing, { status: res.status, headers: res.headers });
}

export function delivery() {
  return createMiddleware<AppEnv>(async function deliver(c, next) {
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    /** Body bytes written so far, as the connection's close reports them (none until a body is on its way). */
    let written = () => 0;
    // Listening before the request is handled: a client that leaves during a QA delay or a slow
    // handler frees its slot at once (the slot's release counts once; later calls do nothing).
    outgoing?.once('close', () => c.get('onDelivered')?.(written()));
    await next();
    const onDelivered = c.get('onDelivered');
    const shape = c.get('bodyShape');
    if (!onDelivered && !shape) return;
    const done = onDelivered ?? (() => undefined);
    if (shape?.reset) {
      done(0);
      c.res = dropConnection(c.env as Partial<HttpBindings> | undefined, c.res);
      return;
    }
    const res = c.res;
    const declared = res.headers.get('content-length');
    const length = Number(declared ?? 0);
    if (c.req.method !== 'HEAD' && !shape && outgoing && declared !== null && length <= DELIVERY_CHUNK_BYTES) {
      // One write: written in full once the response finished, nothing if the connection closed first.
      // Checked before `res.body`: reading it turns @hono/node-server's ready-made response into a
      // web Response and costs its one-write fast path (about 100 us per request).
      written = () => (outgoing.writableFinished ? length : 0);
      return;
    }
    if (c.req.method === 'HEAD' || !res.body) {
      // Over HTTP the close reports none written.
      if (!outgoing) done(0);
      return;
    }
    if (!outgoing && !shape) {
      // In process there is no socket: the response is delivered once it is built.
      done(declared !== null ? length : (await res.clone().arrayBuffer()).byteLength);
      return;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    let taken = 0;
    const body = chunkedBody(bytes, shape ?? {}, (n, ended) => {
      taken = n;
      // Without a socket (in-process), the end of the stream is the end of the response.
      if (ended && !outgoing) done(n);
    });
    // The stream's own count: a truncated response ends "finished" too once its error is written out.
    written = () => taken;
    // The declared length stays: a cut body then really arrives shorter than announced.
    c.res = new Response(body, { status: res.status, headers: res.headers });
  });
}
