/**
 * @module pipeline/delivery-parts.test
 * The delivery step's parts on their own: a connection's requests take turns in order, and a
 * slot is charged what was written (a whole body once the response finished, a stream what it
 * handed over, nothing before a body was on its way).
 */
import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../env.js';
import { SlotRelease } from './slot-release.js';
import { passTurn, takeTurn } from './turns.js';

describe('turns on one connection', () => {
  it('serves the first at once and wakes the others in order', async () => {
    const socket = {} as Socket;
    const order: number[] = [];
    expect(takeTurn(socket)).toBeUndefined();
    const second = takeTurn(socket)!.then(() => order.push(2));
    const third = takeTurn(socket)!.then(() => order.push(3));
    passTurn(socket);
    await second;
    expect(order).toEqual([2]);
    passTurn(socket);
    await third;
    expect(order).toEqual([2, 3]);
    passTurn(socket);
    // Nobody waiting: the next one goes at once.
    expect(takeTurn(socket)).toBeUndefined();
  });
});

describe('the slot released with the bytes written', () => {
  const charged = (
    outgoing: Partial<ServerResponse> | undefined,
    act: (s: SlotRelease) => void,
  ) => {
    const bytes: number[] = [];
    const c = {
      get: () => ({ release: (n: number) => bytes.push(n) }),
    } as unknown as Context<AppEnv>;
    const slot = new SlotRelease(c, outgoing as ServerResponse | undefined);
    act(slot);
    slot.closed();
    return bytes;
  };

  it('charges nothing before a body is on its way', () => {
    expect(charged({ writableFinished: false }, () => {})).toEqual([0]);
  });
  it('charges a whole body once the response finished, nothing if the connection closed first', () => {
    expect(charged({ writableFinished: true }, (s) => s.wholeBody(10))).toEqual([10]);
    expect(charged({ writableFinished: false }, (s) => s.wholeBody(10))).toEqual([0]);
  });
  it('charges a stream what it handed over', () => {
    expect(charged({ writableFinished: false }, (s) => (s.streamed(0), s.streamed(7)))).toEqual([
      7,
    ]);
  });
});
