/**
 * @module checks/declared-statuses
 * On a target that honours `Prefer: code=NNN` (the mock; Prism's convention), every declared error
 * status of every operation is asked for once, so its body is held to its schema even where no
 * natural request produces it (500, 413, 429 on a big quota). Off against live targets.
 */
import { DoesNotApply, type Check } from '../support/context.js';
import { minimalBody, realParams, unknownParams } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { inScope } from '../support/records.js';

const SUCCESS_CLASS = '2';

export const checkDeclaredStatuses: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  if (!ctx.options.usePrefer)
    throw new DoesNotApply(
      'statuses on demand (Prefer: code=NNN) are asked only of a target that honours them (the mock; CONTRACT_USE_PREFER=1)',
    );
  for (const op of ctx.contract.operations.filter((o) => inScope(o, scope))) {
    const params = op.path.includes('{')
      ? ((await realParams(probe, op))?.params ?? unknownParams(probe, op))
      : undefined;
    const body = op.requestBody ? await minimalBody(probe, op.requestBody.schema) : undefined;
    for (const status of op.responses.keys()) {
      if (status.startsWith(SUCCESS_CLASS) || !/^\d{3}$/.test(status)) continue;
      await probe.call(op, {
        params,
        body,
        headers: { prefer: `code=${status}` },
        retryOn429: false,
        expectStatus: [Number(status)],
        statusRule: 'prefer-status',
        statusSource: 'inferred',
      });
    }
  }
  return probe.result();
};
