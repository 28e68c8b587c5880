/**
 * @module proxy/recording.test
 * What `--recordings` keeps, over real HTTP in front of a stand-in upstream: no answer holding
 * personal data (an undeclared field named like it, a value that is it, the key base64-encoded)
 * is written; and the bodies stay within the bound replay accepts, counting what the folder held
 * before: past it the proxy keeps answering, logs once and records nothing more. The package
 * root's `startProxy` still records under the option's old name, `fixturesDir`.
 */
import { Hono } from 'hono';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { MAX_TOTAL_BYTES } from '../recordings/index.js';
import { FOUND_IN_RECORDINGS } from '../recordings/testdata/personal-names.js';
import { startProxy, type RunningProxy } from './listen.js';
import { startProxy as startProxyFromRoot } from '../index.js';
import { logSink, serveApp, type Served } from './testdata/servers.js';

const SECRET = 'demo-live-key/7f';
const NOT_FOUND = (id: string) => ({ error: `Product "${id}" not found` });
/** Personal values in a declared field (`error`), by kind. */
const PERSONAL_VALUES: Record<string, string> = {
  email: 'Product not found; ask jane.doe@example.com',
  card: 'Product 4111 1111 1111 1111 not found',
  iban: 'Product DE89370400440532013000 not found',
  bearer: 'Product not found (Bearer abcdef0123456789)',
  'base64 key': `Product not found (${Buffer.from(`k=${SECRET}`).toString('base64')})`,
};

function upstreamApp(): Hono {
  const app = new Hono();
  app.get(`${BASE_PATH}/products/named`, (c) =>
    c.json({ ...NOT_FOUND('named'), [c.req.query('field')!]: 'x' }, 404),
  );
  app.get(`${BASE_PATH}/products/valued`, (c) =>
    c.json({ error: PERSONAL_VALUES[c.req.query('kind')!] }, 404),
  );
  app.get(`${BASE_PATH}/products/:id`, (c) => c.json(NOT_FOUND(c.req.param('id')), 404));
  return app;
}

let upstream: Served;
let dir: string;

beforeAll(async () => {
  upstream = await serveApp(upstreamApp());
  dir = mkdtempSync(join(tmpdir(), 'proxy-recording-'));
});

afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file below a folder, recursively. */
const filesIn = (folder: string) =>
  readdirSync(folder, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());

describe('personal data', () => {
  let proxy: RunningProxy;
  const sink = logSink();
  const recordings = () => join(dir, 'personal');

  beforeAll(async () => {
    proxy = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      apiVersion: 'unreleased',
      recordingsDir: recordings(),
      log: sink.log,
    });
  });
  afterAll(() => proxy?.close());

  it.each(FOUND_IN_RECORDINGS)('an undeclared field named %s is not recorded', async (field) => {
    const res = await fetch(`${proxy.url}/products/named?field=${field}`);
    expect(res.status).toBe(404);
    expect(sink.events('not-recorded').at(-1)).toMatchObject({
      severity: 'warning',
      reason: expect.stringContaining(`/${field} may hold personal data`),
    });
    expect(filesIn(recordings())).toEqual([]);
  });

  it.each(Object.keys(PERSONAL_VALUES))(
    'a value holding %s is not recorded, and the reason does not repeat it',
    async (kind) => {
      const res = await fetch(`${proxy.url}/products/valued?kind=${encodeURIComponent(kind)}`);
      expect(res.status).toBe(404);
      const event = sink.events('not-recorded').at(-1)!;
      // The key in base64 is the key echoed (src/redaction.ts finds it): scrubbed from the answer
      // too, not only kept out of the recording.
      const keyEcho = kind === 'base64 key';
      expect(event).toMatchObject({
        reason: expect.stringContaining(
          keyEcho ? 'echoed the API key' : '/error may hold personal data (its value',
        ),
      });
      // Only the characters that depend on the key's neighbours (`k=`) remain around the `***`.
      if (keyEcho)
        expect(await res.text()).toMatch(
          /^\{"error":"Product not found \([\w+/]{0,4}\*\*\*[\w+/=]{0,4}\)"\}$/,
        );
      expect(JSON.stringify(event)).not.toContain(PERSONAL_VALUES[kind].slice(8, 30));
      expect(filesIn(recordings())).toEqual([]);
    },
  );

  it('records an answer without any', async () => {
    expect((await fetch(`${proxy.url}/products/PLAIN`)).status).toBe(404);
    expect(filesIn(recordings())).toHaveLength(2);
  });
});

describe('the recording bound', () => {
  it('stops recording at the bound replay accepts (counting the folder as found), logs once, keeps answering', async () => {
    const recordings = join(dir, 'bound');
    mkdirSync(join(recordings, 'getProduct'), { recursive: true });
    // A sparse file: the folder already holds the bound minus 100 bytes of bodies, on no real disk space.
    const filler = join(recordings, 'getProduct', 'earlier.body.json');
    writeFileSync(filler, '');
    truncateSync(filler, MAX_TOTAL_BYTES - 100);
    const sink = logSink();
    const proxy = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      apiVersion: 'unreleased',
      recordingsDir: recordings,
      log: sink.log,
    });
    try {
      // {"error":"Product \"A\" not found"} is 35 bytes: two fit under the bound, the third does not.
      for (const id of ['A', 'B', 'C', 'D', 'E']) {
        const res = await fetch(`${proxy.url}/products/${id}`);
        expect(res.status, id).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND(id));
      }
      expect(sink.events('recorded')).toHaveLength(2);
      expect(sink.events('recording-full')).toEqual([
        expect.objectContaining({
          severity: 'warning',
          reason: expect.stringContaining(`${MAX_TOTAL_BYTES}-byte bound replay accepts`),
        }),
      ]);
      const stats = (await (await fetch(`${proxy.origin}/__proxy/stats`)).json()) as Record<
        string,
        number
      >;
      expect(stats).toMatchObject({ requests: 5, recorded: 2, overRecordingBound: 3 });
      expect(filesIn(recordings)).toHaveLength(1 + 2 * 2);
    } finally {
      await proxy.close();
    }
  });
});

describe('the old name of recordingsDir', () => {
  it('fixturesDir, through the package root, records into the same folder', async () => {
    const folder = join(dir, 'old-name');
    // The deprecated name on purpose: callers written before the rename must keep working.
    const proxy = await startProxyFromRoot({
      upstream: upstream.url,
      apiKey: SECRET,
      apiVersion: 'unreleased',
      fixturesDir: folder,
      log: () => {},
    });
    try {
      expect(proxy.app.settings.recordingsDir).toBe(folder);
      expect((await fetch(`${proxy.url}/products/OLD`)).status).toBe(404);
      expect(filesIn(folder)).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });
});
