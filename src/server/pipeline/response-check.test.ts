/**
 * @module pipeline/response-check.test
 * The mock's self-check on a tiny app with stand-in handlers: a conforming answer passes through
 * untouched; a drifted one becomes a 500 naming the broken rule (the shared checkResponse's names).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createValidators, loadContract } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { jsonResponse } from '../response.js';
import { responseCheck } from './response-check.js';

const RATE_LIMIT = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' };
const PAGE = { data: [], pagination: { offset: 0, limit: 10, total: 0, has_more: false } };

async function appAnswering(answer: () => Response) {
  const contract = await loadContract();
  const reports: string[] = [];
  const app = new Hono<AppEnv>();
  app.get(
    '/packages',
    async (c, next) => {
      c.set('operation', contract.operation('listPackages'));
      await next();
    },
    responseCheck({ validators: createValidators(contract), report: (m) => reports.push(m) }),
    () => answer(),
  );
  return { app, reports };
}

describe('responseCheck', () => {
  it('passes a conforming answer through unchanged', async () => {
    const { app, reports } = await appAnswering(() => jsonResponse(200, PAGE, RATE_LIMIT));
    const res = await app.request('/packages');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(PAGE);
    expect(reports).toEqual([]);
  });

  it.each([
    [
      'schema',
      () =>
        jsonResponse(
          200,
          { ...PAGE, pagination: { ...PAGE.pagination, total: 'many' } },
          RATE_LIMIT,
        ),
    ],
    [
      'rate-limit-headers',
      () => jsonResponse(200, PAGE, { ...RATE_LIMIT, 'x-ratelimit-limit': 'lots' }),
    ],
    [
      'rate-limit-remaining',
      () => jsonResponse(200, PAGE, { ...RATE_LIMIT, 'x-ratelimit-remaining': '101' }),
    ],
    [
      'content-type',
      () =>
        new Response(JSON.stringify(PAGE), {
          headers: { ...RATE_LIMIT, 'content-type': 'text/plain' },
        }),
    ],
    [
      'json',
      () =>
        new Response('{"data":', {
          headers: { ...RATE_LIMIT, 'content-type': 'application/json' },
        }),
    ],
    ['undeclared-status', () => jsonResponse(418, { error: 'teapot' })],
  ])('turns a %s break into a 500 that names it', async (rule, answer) => {
    const { app, reports } = await appAnswering(answer);
    const res = await app.request('/packages');
    expect(res.status).toBe(500);
    const { error } = (await res.json()) as { error: string };
    expect(error).toMatch(/^mock response violates the document: listPackages \d+: /);
    expect(error).toContain(`[${rule}: `);
    expect(reports).toEqual([error]);
  });

  it('lets an answer without the rate-limit headers through: they are optional ("may", source Limits rule 2)', async () => {
    const { app, reports } = await appAnswering(() => jsonResponse(200, PAGE));
    expect((await app.request('/packages')).status).toBe(200);
    expect(reports).toEqual([]);
  });

  it('checks only the headers of a HEAD answer', async () => {
    const { app } = await appAnswering(
      () =>
        new Response('not json', {
          headers: { ...RATE_LIMIT, 'content-type': 'application/json' },
        }),
    );
    expect((await app.request('/packages', { method: 'HEAD' })).status).toBe(200);
  });
});
