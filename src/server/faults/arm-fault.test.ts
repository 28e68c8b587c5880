/**
 * @module faults/arm-fault.test
 * Arming a fault (`POST /__mock/faults`, or `/scenarios`, its first name; the library's `armFault`): a fault that could never
 * fire or that would hit more than asked is refused with a 400 naming the field and the rule
 * (a status the operation does not declare, a wrong type, an unknown field); every documented
 * action field is honoured, `retryAfterSeconds` included.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockApp, QaControlError } from '../../index.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';
import { startMockServer, type RunningServer } from '../listen.js';
import { call, DEMO, sharedDataset, testApp } from '../../testing/mock-app.js';

const TOKEN = 'qa';
const admin = { 'x-mock-admin-token': TOKEN };

describe('arming a fault', async () => {
  const app = await testApp({ adminToken: TOKEN });
  const arm = (body: unknown) =>
    call(app, '/__mock/scenarios', { key: null, headers: admin, body });
  const armed = async () =>
    (await call(app, '/__mock/scenarios', { key: null, headers: admin })).body.armed as unknown[];
  beforeEach(async () => {
    await call(app, '/__mock/scenarios', { key: null, headers: admin, method: 'DELETE' });
  });

  it('answers at /__mock/faults and at its first name /__mock/scenarios, one set of faults', async () => {
    const byNewName = await call(app, '/__mock/faults', {
      key: null,
      headers: admin,
      body: { operationId: 'listProducts', status: 500 },
    });
    expect(byNewName.status).toBe(201);
    expect(await armed()).toHaveLength(1);
    const listed = await call(app, '/__mock/faults', { key: null, headers: admin });
    expect(listed.body.armed).toEqual(await armed());
    const id = String((byNewName.body as { id: string }).id);
    const cleared = await call(app, `/__mock/faults/${id}`, {
      key: null,
      headers: admin,
      method: 'DELETE',
    });
    expect(cleared.body).toEqual({ cleared: 1 });
    expect(await armed()).toEqual([]);
  });

  it('refuses a status the operation does not declare, naming the field and the declared statuses', async () => {
    const res = await arm({ operationId: 'getProductPart', status: 418 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('/status');
    expect(res.body.error).toMatch(/getProductPart declares 200, .*404/);
    expect(await armed()).toEqual([]);
  });

  it('refuses, for any operation, a status no operation declares', async () => {
    const res = await arm({ status: 418 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('/status');
    expect(await armed()).toEqual([]);
  });

  it('refuses a non-string operationId or key instead of arming a fault for every request', async () => {
    const res = await arm({ operationId: ['listProducts'], key: 42, status: 500 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('/operationId');
    expect(res.body.error).toContain('/key');
    expect(await armed()).toEqual([]);
    expect((await call(app, '/products?limit=1')).status).toBe(200);
  });

  it('refuses an unknown operationId, an unknown field and a switch that is not a boolean', async () => {
    const unknownOperation = await arm({ operationId: 'listWidgets', status: 500 });
    expect(unknownOperation.status).toBe(400);
    expect(unknownOperation.body.error).toContain('/operationId');
    // A typo must not arm a fault for every operation.
    const typo = await arm({ operationid: 'listProducts', status: 500 });
    expect(typo.status).toBe(400);
    expect(typo.body.error).toContain('/operationid');
    // A hostile field name comes back bounded, as a JSON pointer.
    const long = await arm({ [`a/b~${'x'.repeat(10_000)}`]: 1, status: 500 });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('"/a~1b~0xxx');
    expect(long.text.length).toBeLessThan(1000);
    const notBoolean = await arm({ operationId: 'listProducts', reset: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.error).toContain('/reset');
    expect(await armed()).toEqual([]);
  });

  it('honours retryAfterSeconds on a forced 429: the Retry-After header and retry_after agree', async () => {
    const res = await arm({ operationId: 'listPackages', status: 429, retryAfterSeconds: 17 });
    expect(res.status).toBe(201);
    expect(res.body.action).toEqual({ status: 429, retryAfterSeconds: 17 });
    const hit = await call(app, '/packages?limit=1');
    expect(hit.status).toBe(429);
    expect(hit.headers.get('retry-after')).toBe('17');
    expect(hit.body.retry_after).toBe(17);
  });

  it('refuses retryAfterSeconds where the status declares no Retry-After, or out of bounds', async () => {
    for (const body of [
      { operationId: 'listPackages', status: 500, retryAfterSeconds: 5 },
      { operationId: 'listPackages', retryAfterSeconds: 5 },
      { operationId: 'listPackages', status: 429, retryAfterSeconds: -1 },
      { operationId: 'listPackages', status: 429, retryAfterSeconds: 86_401 },
      { operationId: 'listPackages', status: 429, retryAfterSeconds: 'soon' },
    ]) {
      const res = await arm(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toContain('/retryAfterSeconds');
    }
    expect(await armed()).toEqual([]);
  });
});

describe('armFault from the library', () => {
  it('rejects an undeclared status with a QaControlError naming the field', async () => {
    const mock = await createMockApp({ adminToken: TOKEN });
    const refused = mock.qa.armFault({ operationId: 'getProductPart', status: 418 });
    await expect(refused).rejects.toBeInstanceOf(QaControlError);
    await expect(refused).rejects.toThrow(/400 .*\/status/);
    expect(await mock.qa.armedFaults()).toEqual([]);
  });
});

describe.runIf(redisAvailable())('a fault armed on one instance of a fleet (Redis)', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it('keeps its retryAfterSeconds: the other instance answers 429 with that Retry-After', async () => {
    const redis = await TestRedis.start();
    closing.push(() => redis.stop());
    const fleet: RunningServer[] = [];
    for (const instanceId of ['a', 'b']) {
      const server = await startMockServer({
        datasets: { production: sharedDataset() },
        adminToken: TOKEN,
        stateUrl: redis.url,
        stateOptions: { commandTimeoutMs: 5000 },
        instanceId,
      });
      closing.push(() => server.close());
      fleet.push(server);
    }
    const armed = await fetch(`${fleet[0].origin}/__mock/scenarios`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'listPackages', status: 429, retryAfterSeconds: 23 }),
    });
    expect(armed.status).toBe(201);
    const hit = await fetch(`${fleet[1].url}/packages?limit=1`, {
      headers: { 'x-api-key': DEMO.unlimited },
    });
    expect(hit.status).toBe(429);
    expect(hit.headers.get('retry-after')).toBe('23');
    expect(((await hit.json()) as { retry_after: number }).retry_after).toBe(23);
  });
});
