/**
 * @module cli
 * The one entry point: parse flags (and the environment variables that are the convention for
 * them), start the mock (or the proxy), print where it listens and the demo keys, and shut down
 * cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { BASE_PATH, loadContract } from '../../contract/index.js';
import { ENVIRONMENTS, type EnvironmentName } from '../config/keys.js';
import { startMockServer, type RunningServer } from '../listen.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SEED } from '../options.js';
import { varySeedProblem } from '../pipeline/variation.js';
import { TIER_FIELDS, tierOverrideProblems, type Tier } from '../config/tiers.js';
import { ActionError, parseLatency, parseRandomFaults } from '../faults/actions.js';
import type { FaultPlanOptions } from '../faults/fault-plan.js';
import {
  EXIT_USAGE,
  exitCodeFor,
  integerArgument,
  numberArgument,
  PORT_RANGE,
  REPOSITORY_COMMAND,
  UsageError,
  type NumberRange,
} from '../../usage.js';
import cluster from 'node:cluster';
import { onEnd } from './process-lifetime.js';
import { asUsageError } from './input-errors.js';
import { announce, detachCommand, isDetached, stopCommand } from './detach-command.js';
import { readRecordsFile } from '../records/seed.js';
import { exposedTokenProblem, MIN_EXPOSED_TOKEN_LENGTH } from '../admin/admin-token.js';
import { isLoopbackName, parseAllowedHost } from '../../net/host-guard.js';
import {
  DEFAULT_JOURNAL_SIZE,
  JOURNAL_SIZE_RANGE,
  MAX_JOURNAL_SIZE,
  MIN_JOURNAL_SIZE,
} from '../../state/journal/journal.js';

import {
  DEFAULT_MAX_SCOPES,
  DEFAULT_SCOPE_TTL_SECONDS,
  MAX_SCOPES_RANGE,
  SCOPE_LIMIT_STATUS,
  SCOPE_TTL_RANGE,
} from '../scopes/limits.js';

/** One flag of the mock: its value's placeholder (none for a switch), its help lines, its section. */
interface Flag {
  section: 'Server' | 'QA' | 'Fleet' | 'Lifetime';
  value?: string;
  help: readonly string[];
  short?: string;
  default?: string | boolean;
}

/** Every flag of the mock, in help order: the parser's options and `--help` both come from here. */
const FLAGS = {
  port: {
    section: 'Server',
    value: '<n>',
    help: [`port (env PORT; default ${DEFAULT_PORT})`],
  },
  host: {
    section: 'Server',
    value: '<addr>',
    help: [`interface (env HOST; default ${DEFAULT_HOST}, loopback only)`],
  },
  seed: {
    section: 'Server',
    value: '<n>',
    help: [`dataset seed (env MOCK_SEED; default ${DEFAULT_SEED}); same seed, same bytes`],
  },
  scale: {
    section: 'Server',
    value: '<x|live>',
    help: [
      'dataset size multiplier (default 1; 1000 = 100,000 products, 1,000,000 parts),',
      "or live: the live catalogue's size (about 86,000 parts, 125,000 documents, 2,050 boards and kits)",
    ],
  },
  release: {
    section: 'Server',
    value: '<v>',
    help: [
      'serve what release <v> served (1.0.0 ... 1.3.0, or "unreleased" to add',
      'the download endpoints); default: the newest release',
    ],
  },
  records: {
    section: 'Server',
    value: '<file>',
    help: [
      'records of your own over the dataset, { family: [records] } in JSON or YAML',
      '(checked against the document; part of the dataset a reset returns to)',
    ],
  },
  'api-version': {
    section: 'Server',
    value: '<v>',
    help: ['the older name of --release (kept as an alias)'],
  },
  environment: {
    section: 'Server',
    value: '<e>',
    default: 'production',
    help: [
      'production | staging | both (default production; with both, staging is',
      `served under /staging${BASE_PATH})`,
    ],
  },
  'public-url': {
    section: 'Server',
    value: '<origin>',
    help: [
      'origin the absolute hrefs name (env MOCK_PUBLIC_URL; default: the origin',
      'each request came to, by its Host), e.g. http://web-data-mock:4010 in a',
      'container network',
    ],
  },
  keys: {
    section: 'Server',
    value: '<file>',
    help: ['API keys file (default config/keys.json)'],
  },
  tiers: {
    section: 'Server',
    value: '<file>',
    help: ['rate-limit tiers file (default config/tiers.json)'],
  },
  'rate-limit': {
    section: 'Server',
    value: '<k=v,...>',
    help: [
      'override every tier, e.g. requestsPerMinute=5,minuteWindowSeconds=10',
      '(fields: requestsPerMinute, requestsPerHour, concurrentConnections,',
      'bytesPerWindow, minuteWindowSeconds, hourWindowSeconds, transferWindowSeconds)',
    ],
  },
  latency: {
    section: 'QA',
    value: '<ms|min-max>',
    help: ['add latency to every API request (uniform in min-max, seeded)'],
  },
  faults: {
    section: 'QA',
    value: '<spec>',
    help: ['seeded random faults, e.g. error=0.05,delay=0.1:100-2000,reset=0.01'],
  },
  'fault-seed': {
    section: 'QA',
    value: '<n>',
    help: [`seed of the fault and latency sequence (default ${DEFAULT_SEED})`],
  },
  replay: {
    section: 'QA',
    value: '<dir>',
    help: ['serve responses the proxy recorded (--recordings) where a request matches'],
  },
  vary: {
    section: 'QA',
    value: '<seed>',
    help: [
      'vary every answer as far as the document allows (optional fields absent,',
      'nulls, empty or long arrays, non-ASCII text, undeclared fields), the same',
      'for the same seed and request; x-mock-variation names what changed',
    ],
  },
  'admin-token': {
    section: 'QA',
    value: '<t>',
    help: [
      'enable /__mock/* control endpoints with this token (env MOCK_ADMIN_TOKEN);',
      `on a --host other than loopback: ${MIN_EXPOSED_TOKEN_LENGTH}+ characters, not one our docs show`,
    ],
  },
  'admin-host': {
    section: 'QA',
    value: '<names>',
    help: [
      'host names (comma-separated; env MOCK_ADMIN_HOST) the controls answer to',
      "besides loopback and the mock's own address; any other Host: 403",
    ],
  },
  'validate-responses': {
    section: 'QA',
    default: false,
    help: ['check every response against the document before sending it'],
  },
  'journal-size': {
    section: 'QA',
    value: '<n>',
    help: [
      `requests the journal keeps (${MIN_JOURNAL_SIZE} to ${MAX_JOURNAL_SIZE}; default ${DEFAULT_JOURNAL_SIZE});`,
      'verify and the journal name the earlier ones no longer kept, and a',
      'verdict they could change fails',
    ],
  },
  'scope-ttl': {
    section: 'QA',
    value: '<s>',
    help: [
      `a scope (qa.scope(), POST /__mock/scopes) unused this many seconds ends`,
      `(${SCOPE_TTL_RANGE.min} to ${SCOPE_TTL_RANGE.max}; default ${DEFAULT_SCOPE_TTL_SECONDS})`,
    ],
  },
  'max-scopes': {
    section: 'QA',
    value: '<n>',
    help: [
      `scopes held at once (${MAX_SCOPES_RANGE.min} to ${MAX_SCOPES_RANGE.max}; default ${DEFAULT_MAX_SCOPES});`,
      `one more is refused with ${SCOPE_LIMIT_STATUS} until one is closed or expires`,
    ],
  },
  state: {
    section: 'Fleet',
    value: '<url>',
    help: [
      'keep rate limits, armed faults, the journal and the QA clock in Redis',
      '(env MOCK_STATE), e.g. redis://127.0.0.1:6379/0; default: in this process',
    ],
  },
  'state-prefix': {
    section: 'Fleet',
    value: '<p>',
    help: ['prefix of every Redis key (env MOCK_STATE_PREFIX; default web-data-mock:)'],
  },
  'state-lease': {
    section: 'Fleet',
    value: '<s>',
    help: [
      "a concurrent-connection slot's lease in Redis, renewed while the request",
      "lives; a crashed instance's slots free after it (default 15)",
    ],
  },
  'instance-id': {
    section: 'Fleet',
    value: '<id>',
    help: ['this instance in the journal (env MOCK_INSTANCE_ID; default hostname:pid)'],
  },
  workers: {
    section: 'Fleet',
    value: '<n>',
    help: ['run n processes on one port (node:cluster); needs --state'],
  },
  log: {
    section: 'QA',
    default: false,
    help: [
      'one line per request on stdout: method, path, status, time, key name;',
      'never a key: one anywhere in the path or query (any case or encoding)',
      'shows as ***, a key-like query parameter (api_key, token, ...) as REDACTED',
    ],
  },
  detach: {
    section: 'Lifetime',
    default: false,
    help: [
      'start in the background, wait until it answers, print its base URL and exit 0 (2, with',
      'the reason, when it cannot start); it outlives the shell: end it with `stop --port <n>`',
    ],
  },
  help: { section: 'Lifetime', short: 'h', default: false, help: ['this text'] },
} as const satisfies Record<string, Flag>;

/** The parser's option for each flag: a string where the flag takes a value, else a switch. */
type ParserOptions<T extends Record<string, Flag>> = {
  [K in keyof T]: T[K] extends { value: string }
    ? T[K] extends { default: string }
      ? { type: 'string'; default: string }
      : { type: 'string' }
    : { type: 'boolean'; default: boolean; short?: string };
};

function parserOptions<T extends Record<string, Flag>>(flags: T): ParserOptions<T> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      {
        type: f.value === undefined ? 'boolean' : 'string',
        ...(f.short === undefined ? {} : { short: f.short }),
        ...(f.default === undefined ? {} : { default: f.default }),
      },
    ]),
  ) as ParserOptions<T>;
}

/** The help column where a flag's text starts (after two spaces of indent). */
const HELP_COLUMN = 24;

function helpSection(section: Flag['section']): string[] {
  return Object.entries(FLAGS as Record<string, Flag>)
    .filter(([, f]) => f.section === section)
    .flatMap(([name, f]) => {
      const flag = `${f.short ? `-${f.short}, ` : ''}--${name}${f.value ? ` ${f.value}` : ''}`;
      const [first, ...rest] = f.help;
      return [
        `  ${flag.padEnd(HELP_COLUMN)}${first}`,
        ...rest.map((line) => `  ${' '.repeat(HELP_COLUMN)}${line}`),
      ];
    });
}

/** The mock's `--help`, naming `command` the way the user ran it (`web-data-mock`, `npm start --`). */
export const helpText = (command: string): string =>
  [
    'web-data-mock: offline double of the Web Data API',
    '',
    `Usage: ${command} [options]`,
    `       ${command} stop --port <n>`,
    '',
    'Server',
    ...helpSection('Server'),
    'QA',
    ...helpSection('QA'),
    'Fleet (several instances that behave as one service; see docs/shared-state.md)',
    ...helpSection('Fleet'),
    'Lifetime (by default the mock ends with Ctrl-C, SIGTERM, or the shell or process that started',
    'it, `&` included: a later CI step finds it gone)',
    ...helpSection('Lifetime'),
    `  ${`stop --port <n>`.padEnd(HELP_COLUMN)}end the mock --detach started on port <n>; waits until it is gone`,
    '',
    `Proxy (browser apps and live validation; see ${command} --proxy --help)`,
    '  --proxy <live base URL> forward /web-data/v1 to the live API with the key from WEB_DATA_API_KEY',
    '                          or --api-key-file, validating every response against the document',
    '',
  ].join('\n');

const TIER_FIELD_NAMES: ReadonlySet<string> = new Set(TIER_FIELDS);

/**
 * A flag's value, or else its environment variable's, with the name of the one it came from (a
 * usage error names what the user actually set).
 */
function given(
  flag: string,
  value: string | undefined,
  variable?: string,
  env: NodeJS.ProcessEnv = {},
): { field: string; raw: string } | undefined {
  if (value !== undefined) return { field: `--${flag}`, raw: value };
  const fromEnv = variable === undefined ? undefined : env[variable];
  return fromEnv === undefined ? undefined : { field: variable!, raw: fromEnv };
}

function integer(
  input: { field: string; raw: string } | undefined,
  range: NumberRange,
): number | undefined {
  return input && integerArgument(input.field, input.raw, range);
}

function parseTierOverride(raw: string | undefined): Partial<Tier> {
  if (!raw) return {};
  const override: Record<string, number> = {};
  for (const pair of raw.split(',')) {
    const [field, value] = pair.split('=');
    if (!TIER_FIELD_NAMES.has(field))
      throw new UsageError(`--rate-limit: unknown field "${field}"`);
    override[field] = numberArgument(`--rate-limit: ${field}`, value ?? '', {
      min: 0,
      exclusiveMin: true,
    });
  }
  // The tiers file's rules: counts are whole numbers, every value bounded.
  const problems = tierOverrideProblems(override);
  if (problems.length > 0) throw new UsageError(`--rate-limit: ${problems.join('; ')}`);
  return override;
}

/** `--public-url`: an http(s) origin only (the base path is the mock's own), without a trailing slash. */
function publicOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || raw.replace(/\/$/, '') !== url.origin)
    throw new UsageError(
      `--public-url must be an http(s) origin without a path, e.g. http://web-data-mock:4010 (got "${raw}")`,
    );
  return url.origin;
}

/** `--release`, or its older name `--api-version` (both given must agree), checked against the changelog. */
async function releaseOf(values: {
  release?: string;
  'api-version'?: string;
}): Promise<string | undefined> {
  const { release = values['api-version'], 'api-version': older = release } = values;
  if (release !== older)
    throw new UsageError(
      `--release ${JSON.stringify(release)} and --api-version ${JSON.stringify(older)} (its older name) disagree: give one`,
    );
  if (release === undefined) return undefined;
  try {
    // The very load the mock does next (cached), so checking costs nothing.
    await loadContract({ release });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('Unknown release'))
      throw new UsageError(`--release: ${error.message}`);
    throw error;
  }
  return release;
}

function environmentsOf(raw: string): EnvironmentName[] {
  if (raw === 'both') return [...ENVIRONMENTS];
  if ((ENVIRONMENTS as readonly string[]).includes(raw)) return [raw as EnvironmentName];
  throw new UsageError(`--environment must be production, staging or both (got "${raw}")`);
}

function faultOptions(values: {
  latency?: string;
  faults?: string;
  'fault-seed'?: string;
}): FaultPlanOptions {
  try {
    return {
      seed: integer(given('fault-seed', values['fault-seed']), { min: 0 }) ?? DEFAULT_SEED,
      latency: values.latency === undefined ? undefined : parseLatency(values.latency, '--latency'),
      random:
        values.faults === undefined ? undefined : parseRandomFaults(values.faults, '--faults'),
    };
  } catch (error) {
    // The spec parsers name the flag they were given; the message is the user's to read as is.
    if (error instanceof ActionError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Starts the mock from command-line flags (undefined when only help was asked for, or in a
 * cluster's primary); what the user gave wrong, in a flag or in a file or URL a flag names, is a
 * UsageError (input-errors.ts).
 */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  command = REPOSITORY_COMMAND,
): Promise<RunningServer | undefined> {
  try {
    return await startFromFlags(argv, env, command);
  } catch (error) {
    throw await asUsageError(error);
  }
}

async function startFromFlags(
  argv: string[],
  env: NodeJS.ProcessEnv,
  command: string,
): Promise<RunningServer | undefined> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: parserOptions(FLAGS),
  });
  if (values.help) {
    process.stdout.write(helpText(command));
    return undefined;
  }
  const host = values.host ?? env.HOST ?? DEFAULT_HOST;
  const adminToken = values['admin-token'] ?? env.MOCK_ADMIN_TOKEN;
  const tokenProblem = adminToken ? exposedTokenProblem(adminToken, host) : undefined;
  if (tokenProblem) throw new UsageError(tokenProblem);
  const adminHosts = adminHostsOf(values['admin-host'] ?? env.MOCK_ADMIN_HOST);
  const stateUrl = await stateUrlOf(values.state ?? env.MOCK_STATE);
  const workers = integer(given('workers', values.workers), { min: 1 }) ?? 1;
  if (workers > 1 && !stateUrl)
    // Each worker would keep its own counters: a 20-a-minute key could make 20 x n. Sharing
    // through the primary would put an IPC round trip on every request; Redis is the one way.
    throw new UsageError(
      '--workers needs --state redis://... (each worker would otherwise keep its own rate limits, faults and journal)',
    );
  if (workers > 1 && cluster.isPrimary) {
    const { runWorkers } = await import('./workers.js');
    await runWorkers(workers, stateUrl!);
    return undefined;
  }
  const scale = scaleOf(values.scale);
  const started = performance.now();
  const running = await startMockServer({
    port: integer(given('port', values.port, 'PORT', env), PORT_RANGE) ?? DEFAULT_PORT,
    host,
    origin: publicOrigin(values['public-url'] ?? env.MOCK_PUBLIC_URL),
    seed: integer(given('seed', values.seed, 'MOCK_SEED', env), { min: 0 }),
    scale,
    apiVersion: await releaseOf(values),
    environments: environmentsOf(values.environment),
    keysFile: values.keys,
    tiersFile: values.tiers,
    tierOverride: parseTierOverride(values['rate-limit']),
    adminToken,
    adminHosts,
    faults: faultOptions(values),
    replayDir: values.replay,
    records: values.records === undefined ? undefined : readRecordsFile(values.records),
    vary: varyOf(values.vary),
    validateResponses: values['validate-responses'] || undefined,
    log: values.log ? (line) => process.stdout.write(`${line}\n`) : undefined,
    stateUrl,
    stateOptions: {
      prefix: values['state-prefix'] ?? env.MOCK_STATE_PREFIX,
      leaseMs: leaseMsOf(values['state-lease']),
    },
    instanceId: instanceIdOf(values['instance-id'] ?? env.MOCK_INSTANCE_ID),
    journalSize: integer(given('journal-size', values['journal-size']), JOURNAL_SIZE_RANGE),
    scopeTtlSeconds: integer(given('scope-ttl', values['scope-ttl']), SCOPE_TTL_RANGE),
    maxScopes: integer(given('max-scopes', values['max-scopes']), MAX_SCOPES_RANGE),
  });
  const banner = bannerOf(running, Math.round(performance.now() - started));
  // In a cluster the primary prints one banner, once every worker is ready (see workers.ts).
  if (cluster.isWorker) (await import('./workers.js')).reportReady(banner);
  else process.stdout.write(banner);
  return running;
}

/** `--admin-host a.example,b.example`: bare host names, each checked. */
function adminHostsOf(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((name) => {
    try {
      return parseAllowedHost(name.trim());
    } catch (error) {
      throw new UsageError(`--admin-host ${(error as Error).message}`);
    }
  });
}

/** The address the socket is bound to, as the banner says it (`0.0.0.0:4010`: every interface). */
function boundLine(running: RunningServer): string {
  const bound = running.server.address();
  if (bound === null || typeof bound === 'string') return '';
  const address = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  const reach = isLoopbackName(bound.address)
    ? 'loopback only'
    : bound.address === '0.0.0.0' || bound.address === '::'
      ? 'every interface: other machines can reach it'
      : 'other machines can reach it';
  return `  bound      ${address}:${bound.port} (${reach})`;
}

/** `--vary <seed>`: legal variation seeded by this number; off without the flag. */
function varyOf(raw: string | undefined): { seed: number } | undefined {
  if (raw === undefined) return undefined;
  const seed = raw.trim() === '' ? Number.NaN : Number(raw);
  const problem = varySeedProblem(seed, `"${raw}"`);
  if (problem) throw new UsageError(`--vary ${problem}`);
  return { seed };
}

/** `--state`: a Redis URL, or `memory` (the default, said explicitly). */
async function stateUrlOf(raw: string | undefined): Promise<string | undefined> {
  if (raw === undefined || raw === '' || raw === 'memory') return undefined;
  if (!/^rediss?:\/\//.test(raw)) {
    // The Redis modules (ioredis) load only when a --state flag needs them.
    const { redactUrl } = await import('../../state/redis.js');
    throw new UsageError(
      `--state must be redis://host:port/db, rediss://... or memory (got "${redactUrl(raw)}")`,
    );
  }
  return raw;
}

/** `--state-lease` in seconds (fractions allowed: tests use short leases), as ms. */
function leaseMsOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  return Math.round(numberArgument('--state-lease', raw, { min: 0.1, max: 3600 }) * 1000);
}

/** `--scale`: a positive multiplier, or `live`. */
function scaleOf(raw: string | undefined): number | 'live' | undefined {
  if (raw === undefined || raw === 'live') return raw;
  try {
    return numberArgument('--scale', raw, { min: 0, exclusiveMin: true });
  } catch {
    throw new UsageError(`--scale must be a number > 0 or "live" (got "${raw}")`);
  }
}

/** A worker of a cluster is its own instance: the id given, with the worker's number. */
function instanceIdOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return cluster.isWorker ? `${raw}/w${cluster.worker!.id}` : raw;
}

function bannerOf(running: RunningServer, ms: number): string {
  const { state } = running.app;
  const lines = [
    `Web Data API mock (release ${state.contract.release}, seed ${state.options.seed}, scale ${state.options.scale}) ready in ${ms} ms`,
    ...state.apis.map((api) => `  ${api.environment.padEnd(10)} ${running.origin}${api.basePath}`),
    `  docs       ${running.origin}/docs  (document: ${running.origin}/openapi.yaml)`,
    boundLine(running),
    `  state      ${state.stores.description} (instance ${state.options.instanceId})`,
    state.options.adminToken ? `  controls   ${running.origin}/__mock/ (admin token required)` : '',
    '',
    'Demo keys (send as the x-api-key header):',
    ...state.keys.records
      .filter((k) => k.demo)
      .map(
        (k) =>
          `  ${state.keys.demoSecret(k.name)!.padEnd(24)} ${`(${k.name})`.padEnd(20)} ${k.purpose}`,
      ),
    ...(state.keys.records.some((k) => !k.demo)
      ? [
          `  (+ ${state.keys.records.filter((k) => !k.demo).length} private key(s) from the keys file, not shown)`,
        ]
      : []),
    '',
    `Try: curl -H 'x-api-key: demo-production-key' '${running.url}/products?limit=2'`,
  ];
  return `${lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n')}\n`;
}

/**
 * Runs `main` from the command line: usage errors exit 2 with a message; a signal or the parent's
 * exit closes cleanly. `command` is how the user ran it, for `--help`.
 */
export async function run(command = REPOSITORY_COMMAND): Promise<void> {
  try {
    const argv = process.argv.slice(2);
    if (argv[0] === 'stop') return await stopCommand(argv.slice(1), command);
    if (argv.includes('--detach') && !argv.some((a) => a === '--help' || a === '-h'))
      return await detachCommand(argv, process.argv[1]);
    // The proxy is its own program with its own flags; it shares only the entry point.
    const proxy = argv.some((a) => a === '--proxy' || a.startsWith('--proxy='));
    if (proxy && argv.some((a) => a === '--help' || a === '-h')) {
      process.stdout.write((await import('../../proxy/args.js')).proxyHelpFor(command));
      return;
    }
    // The proxy's modules load only when --proxy asks for them.
    const running = proxy
      ? await (await import('../../proxy/index.js')).runProxyCli(argv)
      : await main(argv, process.env, command);
    if (!running) return;
    // A detached mock outlives its parent; `stop` removes its record, which ends it.
    let forget: (() => void) | undefined;
    const end = onEnd(
      (reason) => {
        forget?.();
        process.stdout.write(`\n${reason}: finishing in-flight requests and closing\n`);
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`web-data-mock: closing failed: ${(error as Error).message}`);
            process.exit(1);
          },
        );
      },
      { watchParent: !isDetached() },
    );
    if (isDetached() && !proxy)
      forget = announce(running as RunningServer, () => end('stop asked'));
  } catch (thrown) {
    // A bad flag, or a bad keys, tiers or replay file (the user's input, like a flag): exit 2 with
    // the flag or file named; anything else exits 1.
    const error = await asUsageError(thrown);
    const code = exitCodeFor(error);
    // Redis away is not a mistake in the flags: one line is the whole story.
    const { StateUnreachableError } = await import('../../state/shared/connection.js');
    const redisAway = (error as Error).cause instanceof StateUnreachableError;
    const hint = code === EXIT_USAGE && !redisAway ? '\n(see --help)' : '';
    console.error(`web-data-mock: ${(error as Error).message}${hint}`);
    process.exit(code);
  }
}

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('/src/server/cli/cli.ts')
)
  await run();
