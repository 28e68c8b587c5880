/** @module rate-limit.contract.test — rate-limit headers count down; a spent quota gives a consistent 429. */
import { describe, it } from 'vitest';
import { checkRateLimitCountdown, checkRateLimitExceeded } from '../src/suite/checks/rate-limit.js';
import { runCheck } from '../src/suite/support/suite.js';

describe('rate limit', () => {
  it('x-ratelimit-remaining counts down and never exceeds x-ratelimit-limit', (t) =>
    runCheck(t, checkRateLimitCountdown));
  it('a spent quota gives 429 whose retry_after equals Retry-After (mock, or CONTRACT_PROVOKE_RATE_LIMIT=1)', (t) =>
    runCheck(t, checkRateLimitExceeded));
});
