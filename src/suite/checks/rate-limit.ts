/**
 * @module checks/rate-limit
 * Rate-limit headers, which the source says successful responses *may* carry (the reference
 * publishes none): absent, one warning per run (the probe gives it); present, they are integers,
 * `x-ratelimit-remaining` never exceeds `x-ratelimit-limit` (the probe checks every response) and
 * drops with each request. When asked to (`CONTRACT_PROVOKE_RATE_LIMIT=1`, on by default only
 * against the suite's own mock), a small-quota key is spent until the target answers 429: a
 * `Retry-After` header and the body's `retry_after` must agree when both are there; either alone
 * is fine. Without an announced limit, never seeing a 429 is only a warning (the numbers are per
 * key and not published).
 */
import { judgeRetryAfter, type Operation } from '../../contract/index.js';
import type { TargetExchange } from '../support/client.js';
import { DoesNotApply, type Check, type CheckContext } from '../support/context.js';
import { Probe } from '../support/probe.js';
import { listOperations } from '../support/records.js';

/** Sequential requests watched for the countdown. */
const COUNTDOWN_REQUESTS = 3;
/** Requests beyond the announced limit before "no 429" becomes a finding. */
const PROVOKE_SLACK = 2;
/** Never spend more than this on provoking a 429, whatever the target announces. */
const PROVOKE_CAP = 500;

function remainingOf(ex: TargetExchange): number | undefined {
  const raw = ex.headers.get('x-ratelimit-remaining');
  return raw === null ? undefined : Number(raw);
}

/** The cheapest operation to spend requests on: the first list of the document. */
function cheapOperation(ctx: CheckContext): Operation {
  return listOperations(ctx.contract)[0] ?? ctx.contract.operations[0];
}

export const checkRateLimitCountdown: Check = async (ctx) => {
  const probe = new Probe(ctx);
  const op = cheapOperation(ctx);
  let previous: number | undefined;
  for (let i = 0; i < COUNTDOWN_REQUESTS; i++) {
    const ex = await probe.call(op, { expectStatus: [200] });
    const remaining = remainingOf(ex);
    if (remaining !== undefined && previous !== undefined && remaining === previous) {
      probe.add(op, ex, {
        rule: 'rate-limit-countdown',
        pointer: 'header:x-ratelimit-remaining',
        expected: `less than ${previous} (one request later)`,
        actual: String(remaining),
        message: 'x-ratelimit-remaining does not count down',
      });
    }
    // A rise means a new window began; the countdown starts again from there.
    previous = remaining;
  }
  return probe.result();
};

export const checkRateLimitExceeded: Check = async (ctx) => {
  const probe = new Probe(ctx);
  const op = cheapOperation(ctx);
  if (!ctx.options.provokeRateLimit)
    throw new DoesNotApply(
      'a 429 is provoked only when asked (CONTRACT_PROVOKE_RATE_LIMIT=1 / --provoke-rate-limit)',
    );
  if (!ctx.options.rateLimitApiKey)
    throw new DoesNotApply('no key to spend (CONTRACT_RATE_LIMIT_API_KEY)');
  let limit = PROVOKE_CAP;
  let announcedLimit = false;
  let previous: number | undefined;
  for (let sent = 0; sent < Math.min(limit + PROVOKE_SLACK, PROVOKE_CAP); sent++) {
    const ex = await probe.call(op, {
      auth: 'rate-limit',
      retryOn429: false,
      expectStatus: [200, 429],
    });
    if (ex.status === 429) {
      // The source: a 429 "may also carry" Retry-After; the body's retry_after is documented. Either alone is fine.
      for (const j of judgeRetryAfter(ex.headers.get('retry-after'), ex.json))
        probe.add(op, ex, {
          rule: j.rule,
          pointer: j.pointer,
          expected: j.expected,
          actual: String(j.actual),
          message: j.message,
        });
      return probe.result();
    }
    const announced = Number(ex.headers.get('x-ratelimit-limit'));
    if (Number.isFinite(announced) && announced > 0) {
      limit = Math.min(limit, announced);
      announcedLimit = true;
    }
    const remaining = remainingOf(ex);
    if (remaining !== undefined && previous !== undefined && remaining >= previous) {
      probe.add(op, ex, {
        rule: 'rate-limit-countdown',
        pointer: 'header:x-ratelimit-remaining',
        expected: `less than ${previous}`,
        actual: String(remaining),
        message: 'x-ratelimit-remaining does not count down while the quota is spent',
      });
    }
    previous = remaining;
  }
  if (announcedLimit)
    probe.addOperationFinding(op, {
      severity: 'failure',
      rule: 'rate-limit-enforced',
      source: 'documented',
      expected: `a 429 within x-ratelimit-limit (${limit}) + ${PROVOKE_SLACK} requests`,
      actual: 'no 429',
      message: 'the rate limit was never enforced',
    });
  else
    probe.skip(
      op,
      '429 on a spent quota',
      `no 429 within ${PROVOKE_CAP} requests and no x-ratelimit-limit announced (limits are per key and not published)`,
    );
  return probe.result();
};
