/**
 * @module checks/drift
 * What the service does tonight against what it did in the baseline run (`CONTRACT_BASELINE`, its
 * profile.json): a field gone from (nearly) every record, a changed type, format, default page size
 * or default order fails, even where the document is silent (when seen often enough to be
 * behaviour); a change the document allows (a declared `[string, null]`) is none; new fields and
 * enum values warn. It
 * compares everything the run observed before it, so it runs last (support/sequencer.ts). Without
 * a baseline, or with one that has no profile, it does not apply; a baseline that cannot be used is
 * a failure saying why.
 */
import { compareProfiles, declaredLookup } from '../../evidence/index.js';
import { baselineOrFailure } from '../support/baseline.js';
import { DoesNotApply, type Check } from '../support/context.js';
import { driftFindings } from '../support/evidence.js';

export const checkDrift: Check = (ctx) => {
  const file = ctx.options.baselineFile;
  if (!file) throw new DoesNotApply('no baseline given (CONTRACT_BASELINE / --baseline)');
  const previous = baselineOrFailure(file, ctx.client.baseUrl);
  if ('rule' in previous) return Promise.resolve([previous]);
  if (!previous.profile)
    throw new DoesNotApply(`the baseline ${file} has no profile beside it (profile.json)`);
  if (ctx.observedRun.count === 0)
    throw new DoesNotApply('no answer of the target was observed before this check');
  const drifts = compareProfiles(
    previous.profile,
    ctx.observedRun,
    ctx.options.drift,
    declaredLookup(ctx.contract.operations),
  );
  return Promise.resolve(driftFindings(drifts, ctx.client.baseUrl));
};
