/**
 * @module recordings/recorder.test
 * What a recording keeps besides the body (the request, the recorded headers) never holds the key,
 * in any case or encoding: such an answer is not recorded.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createRecorder, type RecordInput } from './recorder.js';

const KEY = 'AbCdEf0123456789ABCDEF42';
const dir = mkdtempSync(join(tmpdir(), 'recorder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function input(search: string, contentType: string): Promise<RecordInput> {
  const contract = await loadContract();
  return {
    operation: contract.operations.find((o) => o.operationId === 'listProducts')!,
    method: 'GET',
    rawPath: '/products',
    search,
    status: 200,
    headers: new Headers({ 'content-type': contentType }),
    body: new Uint8Array(
      Buffer.from('{"data":[],"pagination":{"offset":0,"limit":10,"total":0,"has_more":false}}'),
    ),
    findings: [],
  };
}

describe('createRecorder', () => {
  it('does not record a request or a recorded header holding the key in another case', async () => {
    const recorder = createRecorder({ dir, now: () => 0, secrets: [KEY] });
    for (const given of [
      await input(`q=${KEY.toLowerCase()}`, 'application/json'),
      await input('', `application/vnd.${KEY.toLowerCase()}+json`),
    ])
      expect(recorder.record(given)).toMatchObject({ kind: 'skipped', severity: 'warning' });
    expect(readdirSync(dir)).toEqual([]);
    expect(recorder.record(await input('q=x', 'application/json')).kind).toBe('written');
  });
});
