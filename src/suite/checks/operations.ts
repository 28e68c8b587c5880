/**
 * @module checks/operations
 * Every operation in the document, exercised once with a request that should succeed: a list with
 * default paging, a by-ID lookup of a record from its list (whose body must name the same
 * record), a POST with a minimal valid body. The response is held to the document by the probe.
 */
import { judgeIdentifiers } from '../../contract/index.js';
import type { Check } from '../support/context.js';
import { successRequest } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import { inScope, isRecord } from '../support/records.js';
import { show } from '../support/findings.js';

const SUCCESS = [200];

export const checkEveryOperation: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of ctx.contract.operations.filter((o) => inScope(o, scope))) {
    const spec = await successRequest(probe, op);
    if (!spec) {
      probe.addOperationFinding(op, {
        severity: 'failure',
        rule: 'coverage',
        expected: 'a record to address (its list answered no usable identifier)',
        message: `cannot build a request for ${op.operationId}: no identifier found in its list's first page`,
      });
      continue;
    }
    const ex = await probe.call(op, { ...spec, expectStatus: SUCCESS });
    if (ex.status !== SUCCESS[0] || !spec.params || !isRecord(ex.json)) continue;
    // A by-ID body must be the record that was asked for (identifiers survive percent-encoding):
    // the same judgement the mock gives a stub's answer.
    for (const j of judgeIdentifiers(op, spec.params, ex.json))
      probe.add(op, ex, {
        rule: j.rule,
        source: j.source,
        pointer: j.pointer,
        expected: j.expected,
        actual: show(j.actual).slice(0, 200),
        message: j.message,
      });
  }
  return probe.result();
};
