/**
 * @module pipeline/turns
 * One connection's API requests in turn. Node parses pipelined requests and hands them over at
 * once, but sends their answers in order; without turns every one of them took a rate-limit slot
 * (the 21st got a 429 "concurrent connections"), and one queued behind a delay never saw its
 * connection close (Node emits no `close` on a response that never reached the socket), so its
 * slot stayed taken for good. The delivery step takes a turn first and passes it on when its
 * response's `close` comes.
 */
import type { Socket } from 'node:net';

interface Turns {
  /** A request of this connection is between its turn and its response's `close`. */
  busy: boolean;
  /** Requests pipelined behind it, woken in order. */
  waiting: (() => void)[];
}
const turnsOf = new WeakMap<Socket, Turns>();

/** Resolves when it is this request's turn on `socket` (undefined: at once, nobody else is being served). */
export function takeTurn(socket: Socket): Promise<void> | undefined {
  let turns = turnsOf.get(socket);
  if (!turns) turnsOf.set(socket, (turns = { busy: false, waiting: [] }));
  if (!turns.busy) {
    turns.busy = true;
    return undefined;
  }
  return new Promise((resolve) => turns.waiting.push(resolve));
}

/** Hands the connection to the next pipelined request (which finds it closed if it was). */
export function passTurn(socket: Socket): void {
  const turns = turnsOf.get(socket);
  if (!turns) return;
  const next = turns.waiting.shift();
  if (next) next();
  else turns.busy = false;
}
