/**
 * @module pipeline/delivery
 * The outermost step of an API request: when its turn on the connection comes (turns.ts), how
 * the response's body leaves (body-shape.ts: in bounded chunks, cut or slowed when QA asked,
 * after the self-check saw the whole body), and when it is done, which gives the rate limiter's
 * slot back with the body bytes actually written (slot-release.ts). A HEAD writes no body bytes.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env.js';
import { CLIENT_CLOSED_REQUEST } from '../errors.js';
import { declaredLength, knownBody } from '../response.js';
import type { BodyShape } from '../faults/actions.js';
import { systemSleep, type Sleep } from '../../state/clock/clock.js';
import { chunkedBody, DELIVERY_CHUNK_BYTES, dropConnection } from './body-shape.js';
import { SlotRelease } from './slot-release.js';
import { passTurn, takeTurn } from './turns.js';

/**
 * The built response on its way: as it is, or re-made as a chunked (and shaped) body. Without a
 * promise when the body goes as it is (most answers: one write).
 */
function send(
  c: Context<AppEnv>,
  env: Partial<HttpBindings> | undefined,
  slot: SlotRelease,
  shape: BodyShape | undefined,
  sleep: Sleep,
): void | Promise<void> {
  const outgoing = env?.outgoing;
  const res = c.res;
  const head = c.req.method === 'HEAD';
  const length = head ? undefined : declaredLength(res);
  if (!shape && outgoing && length !== undefined && length <= DELIVERY_CHUNK_BYTES) {
    // One write: written in full once the response finished, nothing if the connection closed first.
    // Checked before `res.body`: reading it turns @hono/node-server's ready-made response into a
    // web Response and costs its one-write fast path (bench/README.md).
    slot.wholeBody(length);
    return;
  }
  // Our own responses say what their body is without `res.body` (which builds the web Response).
  const known = head ? undefined : knownBody(res);
  if (head || (!known && !res.body)) {
    // Over HTTP the close reports none written.
    if (!outgoing) slot.release(0);
    return;
  }
  if (!outgoing && !shape) {
    // In process there is no socket: the response is delivered once it is built.
    if (length !== undefined) return slot.release(length);
    return res
      .clone()
      .arrayBuffer()
      .then((bytes) => slot.release(bytes.byteLength));
  }
  if (known) return stream(c, env, slot, known, shape, sleep);
  return res
    .arrayBuffer()
    .then((bytes) => stream(c, env, slot, new Uint8Array(bytes), shape, sleep));
}

/** The body re-made as a stream of chunks, each written only once the previous one was taken. */
function stream(
  c: Context<AppEnv>,
  env: Partial<HttpBindings> | undefined,
  slot: SlotRelease,
  bytes: Uint8Array,
  shape: BodyShape | undefined,
  sleep: Sleep,
): void {
  const outgoing = env?.outgoing;
  const res = c.res;
  slot.streamed(0);
  const socket = env?.incoming?.socket;
  const cut = socket && (() => socket.destroy());
  const body = chunkedBody(
    bytes,
    cut,
    shape ?? {},
    (n, ended) => {
      // The stream's own count: a truncated response ends "finished" too once its error is written out.
      slot.streamed(n);
      // Without a socket (in-process), the end of the stream is the end of the response.
      if (ended && !outgoing) slot.release(n);
    },
    sleep,
  );
  // The declared length stays: a cut body then really arrives shorter than announced. Cleared
  // first: Hono wraps a response set over another in a web Response, to copy the same headers.
  c.res = undefined;
  c.res = new Response(body, { status: res.status, headers: res.headers });
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
    const slot = new SlotRelease(c, outgoing);
    // Listening before the request is handled: a client that leaves during a QA delay or a slow
    // handler frees its slot at once. This response is the connection's current one, so its
    // `close` comes, whichever way it ends.
    outgoing?.on('close', () => {
      slot.closed();
      if (socket) passTurn(socket);
    });
    await next();
    // Gone while the answer was made: nobody will read it, and its `close` may have come already.
    if (socket?.destroyed) slot.closed();
    const shape = c.get('bodyShape');
    if (!slot.held && !shape) return;
    if (shape?.reset) {
      slot.release(0);
      c.res = dropConnection(env, c.res);
      return;
    }
    const sending = send(c, env, slot, shape, sleep);
    if (sending) await sending;
  });
}
