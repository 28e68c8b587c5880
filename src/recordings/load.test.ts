/**
 * @module recordings/load.test
 * A replay directory is input someone hands us: every way it can try to make the mock serve a
 * file from elsewhere, or break it, is refused at load time with the file and the problem named.
 * Recordings are written by hand here (not by the recorder) so the format itself is what is tested.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../server/listen.js';
import { DEMO } from '../testing/mock-app.js';
import {
  canonicalRequest,
  recordingKey,
  MAX_BODY_BYTES,
  MAX_META_BYTES,
  sha256,
} from './format.js';
import { loadRecordings } from './load.js';

const BODY = '{"error":"Product \\"P1\\" not found"}';

let root: string;
let dir: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'replay-load-'));
  dir = join(root, 'rec');
  outside = join(root, 'secret.txt');
  mkdirSync(join(dir, 'getProduct'), { recursive: true });
  writeFileSync(outside, 'root:x:0:0:secret outside the replay directory\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A recording for GET /products/P1; `change` edits the meta before it is written. */
function writeRecording(
  change: (meta: Record<string, any>) => void = () => {},
  body: string = BODY,
): string {
  const request = canonicalRequest('GET', '/products/P1', '');
  const key = recordingKey(request);
  writeFileSync(join(dir, 'getProduct', `${key}.body.json`), body);
  const meta: Record<string, any> = {
    // The wire value as files on disk carry it (spelled out, not RECORDING_FORMAT): a rename of the
    // constant must not change what loads.
    format: 'web-data-fixture/1',
    operationId: 'getProduct',
    request,
    response: {
      status: 404,
      headers: { 'content-type': 'application/json' },
      bodyFile: `${key}.body.json`,
      bodySha256: sha256(body),
      bytes: Buffer.byteLength(body),
    },
    recordedAt: '2026-01-01T00:00:00.000Z',
  };
  change(meta);
  const file = join(dir, 'getProduct', `${key}.json`);
  writeFileSync(file, JSON.stringify(meta));
  return file;
}

function loadError(): string {
  try {
    loadRecordings(dir);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('loadRecordings accepted the directory');
}

const outsideBytes = 'root:x:0:0:secret outside the replay directory\n';

describe('loadRecordings', () => {
  it('loads a well-formed recording', () => {
    writeRecording();
    const recordings = loadRecordings(dir);
    expect([...recordings.values()].map((r) => Buffer.from(r.body).toString())).toEqual([BODY]);
  });

  it('refuses a bodyFile that climbs out of the directory, naming the meta file', () => {
    const file = writeRecording((meta) => {
      meta.response.bodyFile = '../../secret.txt';
      meta.response.bodySha256 = sha256(outsideBytes);
      meta.response.bytes = outsideBytes.length;
    });
    expect(loadError()).toContain(
      `${file}: /response/bodyFile must be a plain file name next to its meta file`,
    );
  });

  it('refuses an absolute bodyFile', () => {
    const file = writeRecording((meta) => {
      meta.response.bodyFile = outside;
      meta.response.bodySha256 = sha256(outsideBytes);
      meta.response.bytes = outsideBytes.length;
    });
    expect(loadError()).toContain(
      `${file}: /response/bodyFile must be a plain file name next to its meta file`,
    );
  });

  it('refuses a body file that is a symlink out of the directory (its real path is checked)', () => {
    const file = writeRecording((meta) => {
      meta.response.bodyFile = 'link.body.json';
      meta.response.bodySha256 = sha256(outsideBytes);
      meta.response.bytes = outsideBytes.length;
    });
    symlinkSync(outside, join(dir, 'getProduct', 'link.body.json'));
    expect(loadError()).toMatch(
      new RegExp(
        `${escape(file)}: body file .*link\\.body\\.json: resolves outside the replay directory`,
      ),
    );
  });

  it('refuses an operation folder that is a symlink out of the directory', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const request = canonicalRequest('GET', '/products/P2', '');
    writeFileSync(join(elsewhere, 'b.body.json'), BODY);
    writeFileSync(
      join(elsewhere, `${recordingKey(request)}.json`),
      JSON.stringify({
        format: 'web-data-fixture/1',
        operationId: 'getProduct',
        request,
        response: {
          status: 200,
          headers: {},
          bodyFile: 'b.body.json',
          bodySha256: sha256(BODY),
          bytes: BODY.length,
        },
      }),
    );
    symlinkSync(elsewhere, join(dir, 'linked'));
    expect(loadError()).toMatch(/linked\/[0-9a-f]+\.json: resolves outside the replay directory/);
  });

  it.each([
    [99, 'must be >= 200'],
    [600, 'must be <= 599'],
    [200.5, 'must be integer'],
  ])('refuses status %s', (status, message) => {
    const file = writeRecording((meta) => (meta.response.status = status));
    expect(loadError()).toContain(`${file}: /response/status ${message}`);
  });

  it('names the file of malformed JSON', () => {
    const file = writeRecording();
    writeFileSync(file, '{"format": ');
    expect(loadError()).toMatch(new RegExp(`${escape(file)}: not valid JSON \\(`));
  });

  it('names the file and the key when "response" is missing', () => {
    const file = writeRecording((meta) => delete meta.response);
    expect(loadError()).toContain(`${file}: the top level must have required property 'response'`);
  });

  it('refuses a header that was never recorded (a recording cannot set cookies)', () => {
    const file = writeRecording((meta) => (meta.response.headers['set-cookie'] = 'session=1'));
    expect(loadError()).toContain(
      `${file}: /response/headers must be equal to one of the allowed values`,
    );
  });

  it('refuses a body or meta file over its size cap without reading it', () => {
    const file = writeRecording();
    const bodyFile = file.replace(/\.json$/, '.body.json');
    truncateSync(bodyFile, MAX_BODY_BYTES + 1);
    expect(loadError()).toContain(
      `is ${MAX_BODY_BYTES + 1} bytes, over the ${MAX_BODY_BYTES}-byte cap`,
    );
    truncateSync(file, MAX_META_BYTES + 1);
    expect(loadError()).toContain(
      `${file}: is ${MAX_META_BYTES + 1} bytes, over the ${MAX_META_BYTES}-byte cap`,
    );
  });

  it('refuses a body changed after recording', () => {
    const file = writeRecording();
    writeFileSync(file.replace(/\.json$/, '.body.json'), BODY.replace('P1', 'P9'));
    expect(loadError()).toContain(`${file}: body file`);
  });

  it('reports every bad file at once, counting files and problems apart', () => {
    writeRecording((meta) => (meta.response.status = 700));
    const request = canonicalRequest('GET', '/products/P3', '');
    writeFileSync(join(dir, 'getProduct', `${recordingKey(request)}.json`), 'not json');
    writeFileSync(join(dir, 'getProduct', 'empty.json'), '{"format": "web-data-fixture/1"}');
    expect(loadError()).toMatch(/has 3 bad recording file\(s\), 5 problem\(s\):/);
  });

  it('refuses statuses replay cannot serve: 1xx (interim, never a final answer), 204/205/304 with a body', () => {
    const interim = writeRecording((meta) => (meta.response.status = 150));
    expect(loadError()).toContain(`${interim}: /response/status must be >= 200`);
    for (const status of [204, 205, 304]) {
      const file = writeRecording((meta) => (meta.response.status = status));
      expect(loadError(), String(status)).toContain(
        `${file}: status ${status} carries no body, but the recording has ${Buffer.byteLength(BODY)} bytes`,
      );
    }
  });

  it('names a directory that does not exist', () => {
    expect(() => loadRecordings(join(root, 'absent'))).toThrow(
      /replay: cannot open the recordings directory .*absent \(ENOENT\)/,
    );
  });
});

describe('the mock with --replay', () => {
  it('refuses to start on a directory that would serve a file from outside it', async () => {
    writeRecording((meta) => {
      meta.response.bodyFile = 'link.body.json';
      meta.response.bodySha256 = sha256(outsideBytes);
      meta.response.bytes = outsideBytes.length;
      meta.response.status = 200;
    });
    symlinkSync(outside, join(dir, 'getProduct', 'link.body.json'));
    await expect(startMockServer({ replayDir: dir })).rejects.toThrow(
      /resolves outside the replay directory/,
    );
  });
});

describe('the mock replaying', () => {
  it('answers a 204 or 304 recorded without a body with no body and no length', async () => {
    for (const status of [204, 304]) {
      writeRecording((meta) => (meta.response.status = status), '');
      // getProduct declares neither: the self-check would turn them into 500s.
      const server = await startMockServer({ replayDir: dir, validateResponses: false });
      try {
        const res = await fetch(`${server.url}/products/P1`, {
          headers: { 'x-api-key': DEMO.production },
        });
        expect(res.status).toBe(status);
        expect(res.headers.get('content-length')).toBeNull();
        expect(await res.text()).toBe('');
      } finally {
        await server.close();
      }
    }
  });

  it("answers with the mock's own rate-limit counters, never the recorded ones", async () => {
    writeRecording((meta) => {
      meta.response.headers['x-ratelimit-limit'] = '600';
      meta.response.headers['x-ratelimit-remaining'] = '586';
    });
    const server = await startMockServer({ replayDir: dir });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await fetch(`${server.url}/products/P1`, {
          headers: { 'x-api-key': DEMO.lowTier },
        });
        statuses.push(res.status);
        if (i < 20) {
          expect(res.headers.get('x-replayed-from')).toBe('getProduct');
          expect(res.headers.get('x-ratelimit-limit')).toBe('20');
          expect(res.headers.get('x-ratelimit-remaining')).toBe(String(19 - i));
        }
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([...Array(20).fill(404), 429]);
    } finally {
      await server.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
