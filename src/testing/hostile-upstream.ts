/**
 * @module testing/hostile-upstream
 * A live service as an attacker (a compromised staging host, a proxy in between) would run it: a
 * real node:http server that answers every GET under the base path with a list page
 * (`/products`), a record (`/products/P1`) or a 404 error body (`/products/missing`), or, given
 * `honest` (the mock's base URL, say), with that service's own answer to the same request, each
 * spoiled the ways its knobs say (the spoiled fields added to every record of `data`, or to the
 * body), one knob per attack class of issue 30:
 * - `echoKey`: the key the client sent (`x-api-key`) echoed in header names and values, in the
 *   media type, in body names and values, in a chosen case;
 * - `prototypeNames`: `constructor`, `toString`, `__proto__` as header names, field names, error
 *   fields and string values;
 * - `hugeNumbers`: `1e400` in the body and a 400-digit `x-ratelimit-limit`;
 * - `undeclaredFields`, `longName`: N extra fields per record, and a field name N characters long;
 * - `depth`: the whole body an array nested this deep;
 * - `invalidUtf8`: bytes that are not UTF-8 inside a string value;
 * - `markup`: Markdown, HTML and YAML that would break out of a summary, a page or a patch, in
 *   values and in field names.
 * Test-only; the knobs can change between requests (`set`), and it counts what it answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../contract/index.js';

export type KeyCase = 'as-sent' | 'lower' | 'upper' | 'mixed';
export type EchoPlace =
  'header-name' | 'header-value' | 'content-type' | 'body-name' | 'body-value';

export interface HostileKnobs {
  /** A base URL whose answers are spoiled instead of the made-up ones (same path, query and key). */
  honest?: string;
  echoKey?: { case: KeyCase; in: readonly EchoPlace[] };
  prototypeNames?: boolean;
  hugeNumbers?: boolean;
  /** Undeclared fields added to each record. */
  undeclaredFields?: number;
  /** A field of each record whose name is this many characters long. */
  longName?: number;
  /** The body is `[[[...]]]` nested this deep instead of a page. */
  depth?: number;
  invalidUtf8?: boolean;
  markup?: boolean;
  /** Records per page (default 3). */
  records?: number;
}

export interface HostileUpstream {
  /** `http://127.0.0.1:port` + the base path. */
  url: string;
  /** Changes the knobs for the requests that follow. */
  set(knobs: HostileKnobs): void;
  /** Requests answered so far. */
  readonly answered: number;
  close(): Promise<void>;
}

/** Names every object inherits: looked up through a prototype, they read a function, or set one. */
export const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__'] as const;

/** Strings that are structure in Markdown, HTML or YAML. */
export const MARKUP_VALUES = [
  '# Heading\n![x](http://evil.example/x.png) [click](http://evil.example/)',
  '<script>alert(1)</script><img src=x onerror=alert(2)>',
  '```\n---\nkey: value # comment\n- item',
  '| a | b |\n|---|---|',
];
export const MARKUP_NAMES = ['a\n---\nb', '# name', '<b>bold</b>', 'x`y|z: w #c'];

/** A raw token spliced into the JSON text after serialising (JSON.stringify cannot write it). */
const HUGE_MARK = '\u0000huge\u0000';
const BAD_UTF8_MARK = '\u0000bad-utf8\u0000';

function inCase(text: string, which: KeyCase): string {
  if (which === 'lower') return text.toLowerCase();
  if (which === 'upper') return text.toUpperCase();
  if (which === 'mixed')
    return [...text].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
  return text;
}

/** What one record carries besides its id, for the knobs. */
function spoiledFields(knobs: HostileKnobs, key: string | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const set = (name: string, value: unknown) =>
    Object.defineProperty(fields, name, { value, enumerable: true, writable: true });
  const echo = knobs.echoKey;
  if (echo && key !== undefined) {
    const shown = inCase(key, echo.case);
    if (echo.in.includes('body-name')) set(`echo-${shown}`, 1);
    if (echo.in.includes('body-value')) set('echo', `you sent ${shown}`);
  }
  if (knobs.prototypeNames)
    for (const name of PROTOTYPE_NAMES) set(name, name === 'toString' ? 'constructor' : name);
  if (knobs.hugeNumbers) set('big', HUGE_MARK);
  for (let i = 0; i < (knobs.undeclaredFields ?? 0); i += 1) set(`extra_${i}`, i);
  if (knobs.longName) set('n'.repeat(knobs.longName), 'long');
  if (knobs.invalidUtf8) set('bytes', BAD_UTF8_MARK);
  if (knobs.markup) {
    MARKUP_VALUES.forEach((value, i) => set(`markup_${i}`, value));
    MARKUP_NAMES.forEach((name) => set(name, 'named'));
  }
  return fields;
}

/** The JSON text with the raw tokens put in: `1e400`, and bytes that are not UTF-8. */
function bodyBytes(value: unknown): Buffer {
  const text = JSON.stringify(value).split(JSON.stringify(HUGE_MARK)).join('1e400');
  const [first, ...rest] = text.split(JSON.stringify(BAD_UTF8_MARK).slice(1, -1));
  const parts = [Buffer.from(first)];
  for (const part of rest) parts.push(Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(part));
  return Buffer.concat(parts);
}

interface Answer {
  status: number;
  body: Buffer;
  /** The honest service's headers passed on (content-type and length excepted). */
  headers?: [string, string][];
}

/** Headers of the honest answer not passed on: the hostile server writes its own. */
const NOT_PASSED_ON = [
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
];

/** The honest service's answer to the same request, its JSON body spoiled. */
async function spoiledHonest(
  knobs: HostileKnobs,
  honest: string,
  request: IncomingMessage,
): Promise<Answer> {
  const key = request.headers['x-api-key'] as string | undefined;
  const url = `${honest}${(request.url ?? '/').slice(BASE_PATH.length)}`;
  const res = await fetch(url, { headers: key === undefined ? {} : { 'x-api-key': key } });
  const text = await res.text();
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!NOT_PASSED_ON.includes(name)) headers.push([name, value]);
  });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: res.status, body: Buffer.from(text), headers };
  }
  const spoil = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ...value, ...spoiledFields(knobs, key) }
      : value;
  const page = body as { data?: unknown } | null;
  const spoiled =
    page && typeof page === 'object' && Array.isArray(page.data)
      ? { ...page, data: page.data.map(spoil) }
      : spoil(body);
  return { status: res.status, body: bodyBytes(spoiled), headers };
}

function answer(knobs: HostileKnobs, request: IncomingMessage): Answer | Promise<Answer> {
  if (knobs.depth)
    return {
      status: 200,
      body: Buffer.from(`${'['.repeat(knobs.depth)}${']'.repeat(knobs.depth)}`),
    };
  return knobs.honest ? spoiledHonest(knobs, knobs.honest, request) : madeUp(knobs, request);
}

function madeUp(knobs: HostileKnobs, request: IncomingMessage): Answer {
  const key = request.headers['x-api-key'] as string | undefined;
  const below = (request.url ?? '/').split('?')[0].slice(BASE_PATH.length);
  const segments = below.split('/').filter(Boolean);
  const record = (id: string) => ({ id, title: `Record ${id}`, ...spoiledFields(knobs, key) });
  if (segments.length >= 2 && segments[1] === 'missing') {
    const body = { error: `${segments[1]} not found`, ...spoiledFields(knobs, key) };
    return { status: 404, body: bodyBytes(body) };
  }
  if (segments.length >= 2) return { status: 200, body: bodyBytes(record(segments[1])) };
  const records = Array.from({ length: knobs.records ?? 3 }, (_, i) => record(`P${i}`));
  const page = {
    data: records,
    pagination: { offset: 0, limit: 10, total: records.length, has_more: false },
  };
  return { status: 200, body: bodyBytes(page) };
}

function headersFor(knobs: HostileKnobs, key: string | undefined): [string, string][] {
  const headers: [string, string][] = [];
  // An honest service's own quota headers pass through unless a huge number is asked for.
  if (knobs.hugeNumbers) headers.push(['x-ratelimit-limit', '9'.repeat(400)]);
  else if (!knobs.honest) headers.push(['x-ratelimit-limit', '100']);
  if (!knobs.honest) headers.push(['x-ratelimit-remaining', '99']);
  let mediaType = 'application/json';
  const echo = knobs.echoKey;
  if (echo && key !== undefined) {
    const shown = inCase(key, echo.case);
    if (echo.in.includes('header-name')) headers.push([`x-echo-${shown}`, '1']);
    if (echo.in.includes('header-value')) headers.push(['x-echo', shown]);
    if (echo.in.includes('content-type')) mediaType = `application/vnd.${shown}+json`;
  }
  if (knobs.prototypeNames) for (const name of PROTOTYPE_NAMES) headers.push([name, 'constructor']);
  headers.push(['content-type', `${mediaType}; charset=utf-8`]);
  return headers;
}

/** Writes the spoiled answer; a failure of the honest service is a 502 (this is a test server). */
async function respond(
  knobs: HostileKnobs,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const { status, body, headers = [] } = await answer(knobs, request);
    const own = headersFor(knobs, request.headers['x-api-key'] as string | undefined);
    const ownNames = new Set(own.map(([name]) => name));
    // Written raw: a header name Node's setHeader would accept is all a hostile service needs.
    response.writeHead(status, [
      ...headers.filter(([name]) => !ownNames.has(name)).flat(),
      ...own.flat(),
      'content-length',
      String(body.byteLength),
    ]);
    response.end(body);
  } catch (error) {
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: `hostile upstream: ${(error as Error).message}` }));
  }
}

export async function startHostileUpstream(initial: HostileKnobs = {}): Promise<HostileUpstream> {
  let knobs = initial;
  let answered = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answered += 1;
    void respond(knobs, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    set: (next) => void (knobs = next),
    get answered() {
      return answered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
