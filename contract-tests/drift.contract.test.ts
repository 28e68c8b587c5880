/** @module drift.contract.test — what the service did in the baseline run against tonight (runs last: it compares the whole run). */
import { describe, it } from 'vitest';
import { checkDrift } from '../src/suite/checks/drift.js';
import { runCheck } from '../src/suite/support/suite.js';

describe('drift', () => {
  it('what the service does matches what it did in the baseline run (CONTRACT_BASELINE)', (t) =>
    runCheck(t, checkDrift));
});
