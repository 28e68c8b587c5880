/**
 * @module meta/invalid-utf8.test
 * A JSON body holding bytes that are not UTF-8 is a finding of the suite (rule `json`), where its
 * client used to replace them with U+FFFD and say nothing; the rest of the body is still checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryOperation } from '../../src/suite/checks/operations.js';
import { runChecks, startTarget, type Target } from './harness.js';
import type { Mutation } from './mutating-proxy.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target?.close();
});

/** The first title of /packages gets a byte no UTF-8 text holds. */
const badByte: Mutation = {
  response(res, req) {
    if (req.path !== '/packages' || res.status !== 200 || res.json === undefined) return;
    const bytes = Buffer.from(JSON.stringify(res.json));
    bytes[bytes.indexOf('"title":"') + '"title":"'.length] = 0xff;
    res.raw = bytes;
    res.json = undefined;
  },
};

describe('invalid UTF-8 in a live JSON body', () => {
  it('is a json finding naming it, not a silent replacement', async () => {
    const { findings } = await runChecks(
      target,
      [checkEveryOperation],
      { family: 'packages' },
      badByte,
    );
    const json = findings.filter((f) => f.rule === 'json' && f.operationId === 'listPackages');
    expect(json.length).toBeGreaterThan(0);
    for (const f of json)
      expect(f).toMatchObject({
        severity: 'failure',
        message: expect.stringMatching(/not valid UTF-8/),
      });
  });
});
