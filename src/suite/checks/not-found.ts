/**
 * @module checks/not-found
 * Every by-ID operation answers 404 with the documented `{error}` body for an identifier that
 * names nothing (the probe checks the body against the 404 schema).
 */
import type { Check } from '../support/context.js';
import { minimalBody, unknownParams } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { byIdOperations } from '../support/records.js';

export const checkNotFound: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of byIdOperations(ctx.contract, scope)) {
    const body = op.requestBody ? await minimalBody(probe, op.requestBody.schema) : undefined;
    const source = op.responses.get('404')?.source ?? 'documented';
    await probe.call(op, {
      params: unknownParams(probe, op),
      body,
      expectStatus: [404],
      statusRule: 'not-found',
      statusSource: source,
    });
  }
  return probe.result();
};
