/**
 * @module checks/bad-input
 * Malformed input (a non-integer `limit`, an unknown query parameter, a body that is not JSON) must
 * never break the server. The source leaves the answer "not shown" (Errors rule 3), so any 4xx is
 * fine whatever its status or wording, a 2xx is a warning and a 5xx a failure. A declared 4xx is
 * still held to its declared body.
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
    await probe.call(op, { query: [[PAGING.limit, NOT_AN_INTEGER]], malformed: true });
    await probe.call(op, { query: [[unknownName, '1']], malformed: true });
  }
  for (const op of ctx.contract.operations.filter((o) => o.requestBody && inScope(o, scope))) {
    await probe.call(op, { rawBody: NOT_JSON, malformed: true });
  }
  return probe.result();
};
