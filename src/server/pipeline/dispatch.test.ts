/**
 * @module pipeline/dispatch.test
 * Handlers are pure functions of (environment, operation, input): called with no request and no
 * Hono context they answer as data, without the request line's headers; the dispatch step is
 * where a success gets the rate limiter's counters, once, and an error gets none.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { createApiContext } from '../context.js';
import { handlers } from '../handlers/index.js';
import { call, DEMO, sharedDataset, testApp } from '../../testing/mock-app.js';

describe('pure handlers and the one adapter', async () => {
  const contract = await loadContract({ release: 'unreleased' });
  const dataset = sharedDataset();
  const api = createApiContext('production', '/web-data/v1', dataset, contract);
  const op = (id: string) => contract.operations.find((o) => o.operationId === id)!;

  it('answers a by-ID request as data, with no headers of the request line', () => {
    const id = dataset.softwareTools.id(0);
    const answer = handlers.getSoftwareTool(api, op('getSoftwareTool'), {
      path: { software_tool_id: id },
      query: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({});
    const text =
      typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(dataset.softwareTools.record(0))));
  });

  it('answers a POST from its validated body alone', () => {
    const answer = handlers.crossReferenceProductParts(api, op('crossReferenceProductParts'), {
      path: {},
      query: {},
      body: { partNumbers: ['NO-SUCH-PART'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({});
  });

  it('puts the rate-limit counters on a success once, and none on an error', async () => {
    const app = await testApp();
    const id = dataset.softwareTools.id(0);
    const ok = await call(app, `/software-tools/${encodeURIComponent(id)}`, { key: DEMO.lowTier });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(ok.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const missing = await call(app, '/software-tools/NO-SUCH-TOOL', { key: DEMO.lowTier });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
