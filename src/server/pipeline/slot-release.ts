/**
 * @module pipeline/slot-release
 * The rate limiter's concurrent-connection slot of one request (rate-limit.ts takes it), given
 * back with the body bytes actually written once the response has been fully written or its
 * connection has closed, whichever comes first (a connection that closes while the response is
 * still being made, during a QA delay say, frees the slot then, charged nothing). The slot
 * releases once; later calls do nothing. The delivery step says what is being written.
 */
import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import type { AppEnv } from '../env.js';

export class SlotRelease {
  /** A body sent in one write: it counts whole once the response has finished. */
  #wholeBody: number | undefined;
  /** A chunked body: what its stream handed over so far. */
  #streamed: number | undefined;

  constructor(
    private readonly c: Context<AppEnv>,
    /** Over HTTP, the response being written (in process there is none). */
    private readonly outgoing: ServerResponse | undefined,
  ) {}

  /** Whether the request holds a slot (a request the rate limiter did not admit holds none). */
  get held(): boolean {
    return this.c.get('slot') !== undefined;
  }

  /** Gives the slot back, charged `bytes`. */
  release(bytes: number): void {
    this.c.get('slot')?.release(bytes);
  }

  /** The connection closed (or the client is gone): released with what was written. */
  closed(): void {
    this.release(this.#written());
  }

  /** The body goes to the socket in one write of `length` bytes. */
  wholeBody(length: number): void {
    this.#wholeBody = length;
  }

  /** A chunked body's stream has handed `bytes` over. */
  streamed(bytes: number): void {
    this.#streamed = bytes;
  }

  /** Nothing until a body is on its way; a whole body once the response finished; a stream what it handed over. */
  #written(): number {
    if (this.#streamed !== undefined) return this.#streamed;
    return this.#wholeBody !== undefined && this.outgoing?.writableFinished ? this.#wholeBody : 0;
  }
}
