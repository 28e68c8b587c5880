/**
 * @module pipeline/body-shape
 * How a body leaves over HTTP, QA's shapes included: written in bounded chunks, each only after
 * the previous one was taken by the socket, so a client that stops reading holds back the rest;
 * cut short (the first half, then the connection drops), dribbled (a few bytes per tick, within
 * the QA time bound), or no answer at all (the connection dropped before anything is written).
 * The delivery step applies the shape after the self-check saw the whole body.
 */
import type { HttpBindings } from '@hono/node-server';
import { SLOW_TICK_MS, type BodyShape } from '../faults/actions.js';
import type { Sleep } from '../../state/clock/clock.js';

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
export function chunkedBody(
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
export function dropConnection(env: Partial<HttpBindings> | undefined, res: Response): Response {
  if (env?.incoming) {
    env.incoming.socket.destroy();
    return new Response(null, { status: res.status });
  }
  const failing = new ReadableStream({
    start: (controller) => controller.error(new Error('connection reset by a QA scenario')),
  });
  return new Response(failing, { status: res.status, headers: res.headers });
}
