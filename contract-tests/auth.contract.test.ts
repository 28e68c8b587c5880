/** @module auth.contract.test — 401 without or with an invalid key on every operation; 403 for a key lacking a family. */
import { describe, it } from 'vitest';
import { checkAuthentication, checkAuthorization } from '../src/suite/checks/auth.js';
import { runCheck } from '../src/suite/support/suite.js';

describe('auth', () => {
  it('no key and an invalid key get 401 {error, code: 401} on every operation', (t) =>
    runCheck(t, checkAuthentication));
  it('a key lacking a family gets 403 {error, code: 403} there and success elsewhere', (t) =>
    runCheck(t, checkAuthorization));
});
