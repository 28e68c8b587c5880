/**
 * @module proxy/options
 * Everything the proxy can be told, with its defaults. The CLI maps flags onto this (args.ts);
 * tests pass what they need, including a captured `log`, a clock and a `fetch`.
 */
import type { Release } from '../contract/index.js';
import { BASE_PATH } from '../contract/index.js';
import { normalizeOrigin } from './cors.js';
import { parseAllowedHost } from '../net/host-guard.js';
import type { LogLine } from './report.js';
import type { UpstreamFetch } from './upstream.js';

export const DEFAULT_PROXY_PORT = 4020;
export const DEFAULT_PROXY_HOST = '127.0.0.1';
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;
/** JSON bodies up to this size are buffered and validated; larger ones pass through unchecked. */
export const DEFAULT_MAX_JSON_BYTES = 10 * 1024 * 1024;
/** Request bodies (POST search, cross-reference) above this get a local 413. */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
export const API_KEY_ENV = 'WEB_DATA_API_KEY';

export interface ProxyOptions {
  /** The live service's base URL, ending in `/web-data/v1`. */
  upstream: string;
  /** The secret sent upstream as `x-api-key`; never logged, echoed or sent downstream. */
  apiKey: string;
  /** Browser origins allowed by CORS, e.g. `http://localhost:5173`. */
  allowedOrigins: string[];
  /** Host names answered besides loopback (`--proxy-host`, plus the address listened on); others get 403. */
  allowedHosts: string[];
  /** Add `x-contract-violations: <count>` to validated responses. */
  signalViolations: boolean;
  upstreamTimeoutMs: number;
  maxJsonBytes: number;
  maxRequestBytes: number;
  /** Record conforming JSON responses here (`--recordings`), as files the mock's `--replay` serves. */
  recordingsDir: string | undefined;
  /** Write the observed profile of every forwarded answer here (`--profile`), periodically and on close. */
  profileFile: string | undefined;
  /** How often a changed profile is written (default 60 s). */
  profileIntervalMs: number | undefined;
  /** Validate against this release of the document (default: the newest released). */
  apiVersion: Release | undefined;
  /** One JSON line per event; stderr by default. */
  log: LogLine;
  now: () => number;
  fetch: UpstreamFetch;
}

/** Visible ASCII only: no spaces, control characters or bytes a header cannot carry as they are. */
const VALID_KEY = /^[\x21-\x7e]+$/;

/** What is wrong with a key, by position and kind only: never the key itself. */
function describeBadKey(key: string): string {
  const characters = [...key];
  const at = characters.findIndex((ch) => !VALID_KEY.test(ch));
  const code = characters[at].codePointAt(0)!;
  const kind =
    code < 0x20 || code === 0x7f
      ? 'a control character'
      : code === 0x20
        ? 'a space'
        : 'a non-ASCII character';
  return `${kind} at position ${at + 1} of ${characters.length}`;
}

export type ProxyInput = Partial<ProxyOptions> &
  Pick<ProxyOptions, 'upstream' | 'apiKey'> & {
    /**
     * @deprecated The old name of `recordingsDir` (a recorded file is a recording, not a fixture),
     * still accepted; give one of the two, never both.
     */
    fixturesDir?: string;
  };

/** `recordingsDir`, or the same folder under its old name; both at once is refused, naming both. */
function recordingsDirOf(input: ProxyInput): string | undefined {
  // The old name is read here only: a caller that still says fixturesDir keeps working.
  const old = input.fixturesDir;
  if (input.recordingsDir !== undefined && old !== undefined)
    throw new Error(
      'proxy: recordingsDir and fixturesDir (its old name) were both given; give recordingsDir alone',
    );
  return input.recordingsDir ?? old;
}

export function resolveProxyOptions(input: ProxyInput): ProxyOptions {
  const recordingsDir = recordingsDirOf(input);
  const given = Object.fromEntries(
    Object.entries(input).filter(([name, v]) => v !== undefined && name !== 'fixturesDir'),
  ) as ProxyInput;
  const options: ProxyOptions = {
    allowedOrigins: [],
    allowedHosts: [],
    signalViolations: false,
    upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxJsonBytes: DEFAULT_MAX_JSON_BYTES,
    maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
    profileFile: undefined,
    profileIntervalMs: undefined,
    apiVersion: undefined,
    log: (line) => process.stderr.write(`${line}\n`),
    now: Date.now,
    fetch: (input, init) => fetch(input, init),
    ...given,
    recordingsDir,
  };
  if (!options.apiKey)
    throw new Error(`proxy: no API key (set ${API_KEY_ENV} or pass --api-key-file)`);
  // The key travels as a header value: refuse now what fetch would refuse on every request (never showing it).
  if (!VALID_KEY.test(options.apiKey))
    throw new Error(
      `proxy: the API key is not a valid header value (${describeBadKey(options.apiKey)}); check ${API_KEY_ENV} or the key file`,
    );
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new Error(`proxy: upstream "${options.upstream}" is not a URL`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`proxy: upstream must be http(s), got ${upstream.protocol}`);
  if (upstream.search || upstream.hash || upstream.username || upstream.password)
    throw new Error('proxy: upstream must be a plain base URL (no query, fragment or credentials)');
  const base = upstream.href.replace(/\/+$/, '');
  if (!base.endsWith(BASE_PATH))
    throw new Error(`proxy: upstream must end in ${BASE_PATH} (got ${base})`);
  for (const [name, value] of [
    ['upstreamTimeoutMs', options.upstreamTimeoutMs],
    ['maxJsonBytes', options.maxJsonBytes],
    ['maxRequestBytes', options.maxRequestBytes],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`proxy: ${name} must be a positive integer (got ${value})`);
  }
  const allowedHosts = options.allowedHosts.map((raw) => {
    try {
      return parseAllowedHost(raw);
    } catch (error) {
      throw new Error(`proxy: --proxy-host ${(error as Error).message}`);
    }
  });
  return {
    ...options,
    upstream: base,
    allowedOrigins: options.allowedOrigins.map(normalizeOrigin),
    allowedHosts,
  };
}
