/**
 * @module checks/cross-reference
 * Bounded request lists (the cross-reference's "up to 200 part numbers", read from the request
 * schema's `maxItems`): exactly the limit is accepted with one result per number in request
 * order; one more is a 400.
 */
import type { Schema } from '../../contract/index.js';
import { applicable, type Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { seededTokens } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { inScope, isRecord, scopeName } from '../support/records.js';

/** Required array properties with a `maxItems` of string items: the bounded lists of a request body. */
export function boundedLists(schema: Schema): { name: string; max: number }[] {
  const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries(props)
    .filter(
      ([name, s]) =>
        required.includes(name) &&
        s.type === 'array' &&
        typeof s.maxItems === 'number' &&
        (s.items as Schema | undefined)?.type === 'string',
    )
    .map(([name, s]) => ({ name, max: s.maxItems as number }));
}

export const checkRequestLimits: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  // A body that is just one bounded list.
  const bounded = ctx.contract.operations.filter(
    (o) =>
      o.requestBody &&
      inScope(o, scope) &&
      boundedLists(o.requestBody.schema).length === 1 &&
      (o.requestBody.schema.required as string[]).length === 1,
  );
  for (const op of applicable(
    bounded,
    `no request body that is one bounded list in ${scopeName(scope)}`,
  )) {
    const [{ name, max }] = boundedLists(op.requestBody!.schema);
    const items = seededTokens(ctx.options.seed, 'CONTRACT-XREF', max + 1);
    const atLimit = await probe.call(op, {
      body: { [name]: items.slice(0, max) },
      expectStatus: [200],
      statusRule: 'request-limit',
      statusSource: 'documented',
    });
    const data =
      isRecord(atLimit.json) && Array.isArray(atLimit.json.data) ? atLimit.json.data : undefined;
    if (atLimit.status === 200 && data && data.length !== max) {
      probe.add(op, atLimit, {
        rule: 'request-limit',
        source: op.source,
        pointer: '/data',
        expected: `${max} results, one per ${name} item`,
        actual: String(data.length),
        message: 'result count differs from the request',
      });
    }
    if (data && data.length === max) {
      const order = data.findIndex((r, i) => !(isRecord(r) && Object.values(r).includes(items[i])));
      if (order >= 0)
        probe.add(op, atLimit, {
          rule: 'request-order',
          source: op.source,
          pointer: `/data/${order}`,
          expected: `the result for ${show(items[order])} (request order)`,
          actual: show(data[order]),
          message: 'results are not in request order',
        });
    }
    await probe.call(op, {
      body: { [name]: items },
      expectStatus: [400],
      statusRule: 'request-limit',
      statusSource: 'documented',
    });
  }
  return probe.result();
};
