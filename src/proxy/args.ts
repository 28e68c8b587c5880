/**
 * @module proxy/args
 * `npm start -- --proxy <live base URL> ...`: flags to proxy options. The key comes from the
 * environment (`WEB_DATA_API_KEY`) or a file (`--api-key-file`), never from the command line,
 * where it would land in shell history and `ps` output.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BASE_PATH } from '../contract/index.js';
import type { StartProxyOptions } from './listen.js';
import {
  API_KEY_ENV,
  DEFAULT_MAX_JSON_BYTES,
  DEFAULT_PROXY_HOST,
  DEFAULT_PROXY_PORT,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  resolveProxyOptions,
} from './options.js';
// The one usage error of every command (src/usage.ts), under the name the proxy's callers use.
import {
  integerArgument,
  PORT_RANGE,
  REPOSITORY_COMMAND,
  UsageError,
  type NumberRange,
} from '../usage.js';

/** The proxy's `--help`, naming `command` the way the user ran it (`web-data-mock`, `npm start --`). */
export const proxyHelpFor = (
  command: string,
): string => `web-data-mock --proxy: key-holding, validating proxy in front of the live Web Data API

Usage: ${command} --proxy <live base URL ending in ${BASE_PATH}> [options]

The key is read from the environment variable ${API_KEY_ENV}, or from --api-key-file;
it is never accepted on the command line, and never logged or sent back to the browser.

  --proxy <url>              live base URL, e.g. https://api.example.com${BASE_PATH}
  --api-key-file <path>      read the key from this file (first line; wins over ${API_KEY_ENV})
  --proxy-origin <origin>    browser origin allowed by CORS (repeatable), e.g. http://localhost:5173
  --proxy-host <name>        host name the proxy answers to besides localhost, 127.0.0.0/8, [::1] and
                             the --host address (repeatable); other Host headers get 403 (DNS rebinding)
  --port <n>                 listen port (default ${DEFAULT_PROXY_PORT}); --host <addr> (default ${DEFAULT_PROXY_HOST})
  --recordings <dir>         record each conforming JSON response into this folder, for the
                             mock's --replay (--fixtures <dir> is its old name, still accepted)
  --profile <file>           write what the live service was seen to do (profile.json, see
                             docs/evidence.md) every minute and on shutdown; never a key
  --signal-violations        add x-contract-violations: <count> to validated responses
  --upstream-timeout-ms <n>  answer 504 when the live service takes longer (default ${DEFAULT_UPSTREAM_TIMEOUT_MS})
  --max-json-bytes <n>       validate JSON bodies up to this size (default ${DEFAULT_MAX_JSON_BYTES})
  --api-version <v>          validate against this release of the document (default: newest)
  -h, --help                 this text

Violations are logged as JSON lines on stderr; GET /__proxy/stats returns the counts.
`;

/** The proxy's help as the repository's npm script runs it. */
export const proxyHelp = proxyHelpFor(REPOSITORY_COMMAND);

const KEY_ON_COMMAND_LINE = /^--(api-key|key|x-api-key)(=|$)/;

/** A numeric flag's value in its range, or undefined when the flag was not given. */
function integerFlag(
  flag: string,
  raw: string | undefined,
  range: NumberRange,
): number | undefined {
  return raw === undefined ? undefined : integerArgument(`--${flag}`, raw, range);
}

/** The key from the file (first line, trimmed) or the environment; the message never shows it. */
export function readApiKey(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--api-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const key = text.split(/\r?\n/)[0].trim();
    if (!key) throw new UsageError(`--api-key-file: ${file} is empty`);
    return key;
  }
  const key = env[API_KEY_ENV]?.trim();
  if (!key) throw new UsageError(`no API key: set ${API_KEY_ENV} or pass --api-key-file <path>`);
  return key;
}

/** Flags to options for `startProxy`; `undefined` when help was asked for. */
export function parseProxyArgs(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): StartProxyOptions | undefined {
  if (argv.some((arg) => KEY_ON_COMMAND_LINE.test(arg))) {
    throw new UsageError(
      `the API key is not accepted on the command line; set ${API_KEY_ENV} or use --api-key-file`,
    );
  }
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      proxy: { type: 'string' },
      'api-key-file': { type: 'string' },
      'proxy-origin': { type: 'string', multiple: true, default: [] },
      'proxy-host': { type: 'string', multiple: true, default: [] },
      port: { type: 'string' },
      host: { type: 'string' },
      recordings: { type: 'string' },
      fixtures: { type: 'string' },
      profile: { type: 'string' },
      'signal-violations': { type: 'boolean', default: false },
      'upstream-timeout-ms': { type: 'string' },
      'max-json-bytes': { type: 'string' },
      'api-version': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return undefined;
  if (!values.proxy) throw new UsageError('--proxy <live base URL> is required');
  // --fixtures is the old name of --recordings: the same folder, so never both.
  if (values.recordings !== undefined && values.fixtures !== undefined)
    throw new UsageError(
      '--recordings and --fixtures (its old name) were both given; give --recordings alone',
    );
  const options: StartProxyOptions = {
    upstream: values.proxy,
    apiKey: readApiKey(values['api-key-file'], env),
    allowedOrigins: values['proxy-origin'],
    allowedHosts: values['proxy-host'],
    port: integerFlag('port', values.port, PORT_RANGE) ?? DEFAULT_PROXY_PORT,
    host: values.host ?? DEFAULT_PROXY_HOST,
    recordingsDir: values.recordings ?? values.fixtures,
    profileFile: values.profile,
    signalViolations: values['signal-violations'],
    upstreamTimeoutMs: integerFlag('upstream-timeout-ms', values['upstream-timeout-ms'], {
      min: 1,
    }),
    maxJsonBytes: integerFlag('max-json-bytes', values['max-json-bytes'], { min: 1 }),
    apiVersion: values['api-version'],
  };
  try {
    // Checked here too, so a bad URL or origin is a usage error (exit 2), not a crash at start.
    resolveProxyOptions(options);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^proxy: /, ''));
  }
  return options;
}
