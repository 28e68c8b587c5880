/** @module coverage.contract.test — every operation of the document is exercised and every family has a test file. */
import { describe, it } from 'vitest';
import { checkOperationCoverage } from '../src/suite/checks/coverage.js';
import { runCheck } from '../src/suite/support/suite.js';

describe('coverage', () => {
  it('every operation in the document is exercised with a success, every family has its test file', (t) =>
    runCheck(t, checkOperationCoverage));
});
