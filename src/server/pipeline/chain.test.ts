/**
 * @module server/chain.test
 * A route's steps as one handler, with Hono's rules: a step's Response becomes the answer, an
 * error a step throws (at once or later) becomes the error handler's answer right there, so the
 * steps around it see it as `c.res`; steps that answer at once and steps that wait mix freely.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { chain, type Step } from './chain.js';
import type { AppEnv } from '../env.js';

const seen: string[] = [];
/** An outer step that awaits the rest and records the status it then sees. */
const outer: Step = async (c, next) => {
  await next();
  seen.push(`outer saw ${c.res.status}`);
};
const pass: Step = (_c, next) => next();
const later: Step = async (_c, next) => {
  await Promise.resolve();
  return next();
};
const answer: Step = () => new Response('ok', { status: 201 });
const throwNow: Step = () => {
  throw new Error('now');
};
const throwLater: Step = async () => {
  await Promise.resolve();
  throw new Error('later');
};

async function serve(steps: Step[]): Promise<[number, string]> {
  const app = new Hono<AppEnv>();
  app.get(
    '/',
    chain(steps, (error) => new Response(error.message, { status: 500 })),
  );
  const res = await app.request('/');
  return [res.status, await res.text()];
}

describe('chain', () => {
  it.each([
    ['steps that answer at once', [outer, pass, pass, answer], [201, 'ok']],
    ['steps that wait', [outer, later, later, answer], [201, 'ok']],
    ['a mix', [outer, later, pass, later, answer], [201, 'ok']],
  ] as const)('%s: the handler answers, the outer step sees it', async (_, steps, want) => {
    seen.length = 0;
    expect(await serve([...steps])).toEqual(want);
    expect(seen).toEqual([`outer saw ${want[0]}`]);
  });

  it.each([
    ['thrown at once', throwNow, 'now'],
    ['thrown after a wait', throwLater, 'later'],
  ] as const)(
    'an error %s is the error answer, seen by the steps around it',
    async (_, step, message) => {
      for (const middle of [pass, later]) {
        seen.length = 0;
        expect(await serve([outer, middle, step, answer])).toEqual([500, message]);
        expect(seen).toEqual(['outer saw 500']);
      }
    },
  );
});
