/**
 * @module checks/auth
 * Authentication on every operation: no key and an invalid key give 401 `{error, code: 401}`.
 * Authorization with a key lacking some families: 403 `{error, code: 403}` on exactly those
 * families' operations and success elsewhere. Which families the key lacks comes from
 * `CONTRACT_RESTRICTED_FAMILIES`; on the suite's own mock from the demo key's scopes in
 * config/keys.json (support/demo-keys.ts); otherwise it is probed (a family is restricted when its first operation
 * answers 403, and then all of its operations must; a key refused nowhere is a check that could
 * not run). Given families the key reaches fail `auth.403`.
 */
import type { Operation } from '../../contract/index.js';
import type { Check, CheckContext } from '../support/context.js';
import { demoKeyScopes } from '../support/demo-keys.js';
import { minimalBody, realParams, unknownParams } from '../support/inputs.js';
import { Probe, type CallSpec } from '../support/probe.js';
import { inScope } from '../support/records.js';

/** A request that would succeed with a good key (real identifier when one is known). */
async function plausibleRequest(
  probe: Probe,
  op: Operation,
): Promise<CallSpec & { real: boolean }> {
  const spec: CallSpec & { real: boolean } = { real: true };
  if (op.path.includes('{')) {
    const real = await realParams(probe, op);
    spec.real = real !== undefined;
    spec.params = real?.params ?? unknownParams(probe, op);
  }
  if (op.requestBody) spec.body = await minimalBody(probe, op.requestBody.schema);
  return spec;
}

export const checkAuthentication: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of ctx.contract.operations.filter((o) => inScope(o, scope))) {
    const { real: _, ...spec } = await plausibleRequest(probe, op);
    await probe.call(op, { ...spec, auth: 'none', expectStatus: [401], statusRule: 'auth.401' });
    await probe.call(op, { ...spec, auth: 'invalid', expectStatus: [401], statusRule: 'auth.401' });
  }
  return probe.result();
};

/** The families the restricted demo key lacks, from the scopes the package lists for it. */
function mockRestrictedFamilies(ctx: CheckContext): string[] | undefined {
  const scopes = ctx.options.restrictedApiKey && demoKeyScopes(ctx.options.restrictedApiKey);
  if (!scopes) return undefined;
  return [...new Set(ctx.contract.operations.map((op) => op.family))].filter(
    (f) => !scopes.includes(f),
  );
}

export const checkAuthorization: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const ops = ctx.contract.operations.filter((o) => inScope(o, scope));
  if (!ctx.options.restrictedApiKey) {
    if (ops[0])
      probe.skip(
        ops[0],
        '403 (authorization)',
        'no restricted key given (set CONTRACT_RESTRICTED_API_KEY to a key lacking a family)',
      );
    return probe.result();
  }
  let restricted =
    ctx.options.restrictedFamilies ??
    (ctx.options.target === 'mock' ? mockRestrictedFamilies(ctx) : undefined);
  const probed = restricted === undefined;
  if (probed) {
    restricted = [];
    for (const family of new Set(ops.map((o) => o.family))) {
      const first = ops.find((o) => o.family === family)!;
      const { real: _, ...spec } = await plausibleRequest(probe, first);
      const ex = await probe.call(first, { ...spec, auth: 'restricted' });
      if (ex.status === 403) restricted.push(family);
    }
    // Otherwise every 403 check would turn into a success check without a word.
    if (restricted.length === 0 && ops[0])
      probe.skip(
        ops[0],
        '403 (authorization)',
        'the restricted key was refused nowhere (the first operation of every family answered it); ' +
          'name the families it lacks in CONTRACT_RESTRICTED_FAMILIES to have them checked, or give a key that lacks one',
      );
  }
  for (const op of ops) {
    const { real, ...spec } = await plausibleRequest(probe, op);
    const lacks = restricted!.includes(op.family);
    // Outside its missing families the key must work like any other (404 only for a made-up identifier).
    const expectStatus = lacks ? [403] : real ? [200] : [200, 404];
    await probe.call(op, {
      ...spec,
      auth: 'restricted',
      expectStatus,
      statusRule: lacks ? (probed ? 'auth.403 (probed family)' : 'auth.403') : 'auth.scope',
      statusSource: 'documented',
    });
  }
  return probe.result();
};
