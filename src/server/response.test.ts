/**
 * @module server/response.test
 * A response built here tells its body length and bytes without being read (the delivery step
 * relies on both), and they are what reading it gives; any other response is read as usual.
 */
import { describe, expect, it } from 'vitest';
import { declaredLength, jsonBytesResponse, knownBody } from './response.js';

describe('responses built here', () => {
  it('know their body bytes and length, equal to what reading them gives', async () => {
    for (const body of ['{"name":"Grüße"}', new TextEncoder().encode('{"n":1}')]) {
      const res = jsonBytesResponse(200, body);
      const read = new Uint8Array(await res.clone().arrayBuffer());
      expect(knownBody(res)).toEqual(read);
      expect(declaredLength(res)).toBe(read.byteLength);
    }
  });

  it('say nothing of a response built elsewhere', () => {
    expect(knownBody(new Response('x'))).toBeUndefined();
  });
});
