/**
 * @module checks/bad-input
 * Malformed input gets the declared 400 `{error, code: 400, details}` (the source leaves this "not
 * shown", so a different answer is an inferred-rule warning unless strict): a non-integer `limit`,
 * an unknown query parameter, a body that is not JSON.
 */
import type { Check } from '../support/context.js';
import { seededTokens } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { PAGING, listOperations, inScope } from '../support/records.js';

const NOT_AN_INTEGER = 'ten';
const NOT_JSON = '{"unterminated": ';

export const checkBadInput: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const [unknownName] = seededTokens(ctx.options.seed, 'contractUnknownParam', 1);
  for (const op of listOperations(ctx.contract, scope)) {
    const source = op.responses.get('400')?.source ?? 'inferred';
    await probe.call(op, { query: [[PAGING.limit, NOT_AN_INTEGER]], expectStatus: [400], statusRule: 'bad-input', statusSource: source });
    await probe.call(op, { query: [[unknownName, '1']], expectStatus: [400], statusRule: 'bad-input', statusSource: source });
  }
  for (const op of ctx.contract.operations.filter((o) => o.requestBody && inScope(o, scope))) {
    const source = op.responses.get('400')?.source ?? 'inferred';
    await probe.call(op, { rawBody: NOT_JSON, expectStatus: [400], statusRule: 'bad-input', statusSource: source });
  }
  return probe.result();
};
