/**
 * @module pipeline/delivery
 * The outermost step of an API request: how the response's body leaves, and when it is done.
 * Over HTTP the body is written in bounded chunks, each only after the previous one was taken by
 * the socket, so a client that stops reading holds back the rest; a QA shape (cut short, dribbled)
 * is applied here, after the self-check saw the whole body. The rate limiter's slot (and its
 * transfer charge) is released with the body bytes actually written once the response has been fully
 * written or its connection has closed, whichever comes first (a connection that closes while
 * the response is still being made, during a QA delay say, frees the slot then, charged nothing).
 * A HEAD writes no body bytes.
 */
import type { HttpBindings } from '@hono/node-server';
import { createMiddleware } from 'hono/factory';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppEnv } from '../env.js';
import { CLIENT_CLOSED_REQUEST } from '../errors.js';
import { declaredLength, knownBody } from '../response.js';
import { SLOW_TICK_MS, type BodyShape } from '../faults/actions.js';
import { systemSleep, type Sleep } from '../../state/clock.js';

/** A body larger than this is written chunk by chunk (smaller ones go to the socket in one write). */
export const DELIVERY_CHUNK_BYTES = 64 * 1024;

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
function chunkedBody(
  bytes: Uint8Array,
  /** Over HTTP, ends the body short by closing the connection (nothing to log: it is on purpose). */
  cut: (() => void) | undefined,
  shape: BodyShape,
  onProgress: (written: number, ended: boolean) => void,
  sleep: Sleep,
): ReadableStream<Uint8Array> {
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
            // An errored stream would reach the HTTP server as a failure, printed with its stack.
            if (cut) cut();
            else controller.error(new Error('body truncated by a QA scenario'));
          } else controller.close();
          return;
        }
        let size = DELIVERY_CHUNK_BYTES;
        if (shape.slowBytesPerTick) {
          if (offset > 0) await sleep(SLOW_TICK_MS);
          size =
            shape.deadline === undefined
              ? shape.slowBytesPerTick
              : dribbleRate(
                  shape.slowBytesPerTick,
                  stopAt - offset,
                  shape.deadline - performance.now(),
                );
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
  const failing = new ReadableStream({
    start: (controller) => controller.error(new Error('connection reset by a QA scenario')),
  });
  return new Response(failing, { status: res.status, headers: res.headers });
}

/**
 * What has been written of the body, for the connection's close to report: nothing until a body
 * is on its way; a body sent in one write counts whole once the response has finished; a
 * chunked body counts what its stream handed over.
 */
interface Progress {
  wholeBody?: number;
  streamed?: number;
}

function bytesWritten(progress: Progress, outgoing: ServerResponse): number {
  if (progress.streamed !== undefined) return progress.streamed;
  return progress.wholeBody !== undefined && outgoing.writableFinished ? progress.wholeBody : 0;
}

/**
 * One connection's API requests in turn. Node parses pipelined requests and hands them over at
 * once, but sends their answers in order; without turns every one of them took a slot (the 21st
 * got a 429 "concurrent connections"), and one queued behind a delay never saw its connection
 * close (Node emits no `close` on a response that never reached the socket), so its slot stayed
 * taken for good.
 */
interface Turns {
  /** A request of this connection is between its turn and its response's `close`. */
  busy: boolean;
  /** Requests pipelined behind it, woken in order. */
  waiting: (() => void)[];
}
const turnsOf = new WeakMap<Socket, Turns>();

/** Resolves when it is this request's turn on `socket` (at once unless another is being served). */
function takeTurn(socket: Socket): Promise<void> | undefined {
  let turns = turnsOf.get(socket);
  if (!turns) turnsOf.set(socket, (turns = { busy: false, waiting: [] }));
  if (!turns.busy) {
    turns.busy = true;
    return undefined;
  }
  return new Promise((resolve) => turns.waiting.push(resolve));
}

/** Hands the connection to the next pipelined request (which finds it closed if it was). */
function passTurn(socket: Socket): void {
  const turns = turnsOf.get(socket);
  if (!turns) return;
  const next = turns.waiting.shift();
  if (next) next();
  else turns.busy = false;
}

/** `sleep`: how a dribble's tick waits (real timers unless a test drives it). */
export function delivery(options: { sleep?: Sleep } = {}) {
  const sleep = options.sleep ?? systemSleep;
  return createMiddleware<AppEnv>(async function deliver(c, next) {
    const env = c.env as Partial<HttpBindings> | undefined;
    const outgoing = env?.outgoing;
    const socket = env?.incoming?.socket;
    if (socket) {
      const turn = takeTurn(socket);
      if (turn) await turn;
      if (socket.destroyed) {
        passTurn(socket);
        return new Response(null, { status: CLIENT_CLOSED_REQUEST });
      }
    }
    const progress: Progress = {};
    // Listening before the request is handled: a client that leaves during a QA delay or a slow
    // handler frees its slot at once (a slot is released once; later calls do nothing). This
    // response is the connection's current one, so its `close` comes, whichever way it ends.
    outgoing?.on('close', () => {
      c.get('slot')?.release(bytesWritten(progress, outgoing));
      if (socket) passTurn(socket);
    });
    await next();
    const slot = c.get('slot');
    // Gone while the answer was made: nobody will read it, and its `close` may have come already.
    if (socket?.destroyed) slot?.release(bytesWritten(progress, outgoing!));
    const shape = c.get('bodyShape');
    if (!slot && !shape) return;
    if (shape?.reset) {
      slot?.release(0);
      c.res = dropConnection(c.env as Partial<HttpBindings> | undefined, c.res);
      return;
    }
    const res = c.res;
    const head = c.req.method === 'HEAD';
    const length = head ? undefined : declaredLength(res);
    if (!shape && outgoing && length !== undefined && length <= DELIVERY_CHUNK_BYTES) {
      // One write: written in full once the response finished, nothing if the connection closed first.
      // Checked before `res.body`: reading it turns @hono/node-server's ready-made response into a
      // web Response and costs its one-write fast path (bench/README.md).
      progress.wholeBody = length;
      return;
    }
    // Our own responses say what their body is without `res.body` (which builds the web Response).
    const known = head ? undefined : knownBody(res);
    if (head || (!known && !res.body)) {
      // Over HTTP the close reports none written.
      if (!outgoing) slot?.release(0);
      return;
    }
    if (!outgoing && !shape) {
      // In process there is no socket: the response is delivered once it is built.
      slot?.release(length ?? (await res.clone().arrayBuffer()).byteLength);
      return;
    }
    const bytes = known ?? new Uint8Array(await res.arrayBuffer());
    progress.streamed = 0;
    const cut = socket && (() => socket.destroy());
    const body = chunkedBody(
      bytes,
      cut,
      shape ?? {},
      (n, ended) => {
        // The stream's own count: a truncated response ends "finished" too once its error is written out.
        progress.streamed = n;
        // Without a socket (in-process), the end of the stream is the end of the response.
        if (ended && !outgoing) slot?.release(n);
      },
      sleep,
    );
    // The declared length stays: a cut body then really arrives shorter than announced. Cleared
    // first: Hono wraps a response set over another in a web Response, to copy the same headers.
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers: res.headers });
  });
}
