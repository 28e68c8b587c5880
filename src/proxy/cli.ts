/**
 * @module proxy/cli
 * `runProxyCli(argv, env)`: what `npm start -- --proxy ...` does, for src/server/cli/cli.ts to call when it
 * sees `--proxy`: parse the flags, start the proxy, print where it listens (never the key).
 * Usage errors are `UsageError`s (src/usage.ts) for the CLI to print and exit 2 on; the lower
 * layers' errors that are the user's input (a recordings folder, a taken port) become ones here.
 */
import { RecordingsError } from '../recordings/index.js';
import { parseProxyArgs, proxyHelp } from './args.js';
import { UsageError } from '../usage.js';
import { PortTakenError } from '../net/listen.js';
import { STATS_PATH } from './app.js';
import { startProxy, type RunningProxy } from './listen.js';

/** `--recordings`, or its old name when that is the one the command line gave. */
const recordingsFlagIn = (argv: readonly string[]): string =>
  argv.some((arg) => /^--fixtures(=|$)/.test(arg)) ? '--fixtures' : '--recordings';

/** Starts the proxy from command-line flags; undefined when only help was asked for. */
export async function runProxyCli(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<RunningProxy | undefined> {
  const options = parseProxyArgs(argv, env);
  if (!options) {
    write(proxyHelp);
    return undefined;
  }
  let running: RunningProxy;
  try {
    running = await startProxy(options);
  } catch (error) {
    // A recordings path that can never be a directory, or a taken --port, is the user's to fix,
    // like any flag; the message names the flag the user gave (the recorder knows no flags).
    if (error instanceof RecordingsError)
      throw new UsageError(`${recordingsFlagIn(argv)}: ${error.message}`, { cause: error });
    if (error instanceof PortTakenError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const { settings } = running.app;
  write(
    [
      `Web Data API proxy ready: ${running.url} -> ${settings.upstream}`,
      `  key        from ${argv.includes('--api-key-file') ? '--api-key-file' : 'WEB_DATA_API_KEY'} (added upstream; never logged or sent back)`,
      `  origins    ${settings.allowedOrigins.join(', ') || 'none (browsers are refused; curl and servers work)'}`,
      `  validate   against release ${settings.apiVersion ?? 'newest'}; violations as JSON lines on stderr${settings.signalViolations ? ', counted in x-contract-violations' : ''}`,
      `  stats      ${running.origin}${STATS_PATH}`,
      ...(settings.recordingsDir ? [`  recording  to ${settings.recordingsDir}`] : []),
      ...(settings.profileFile ? [`  profile    to ${settings.profileFile}`] : []),
      '',
    ].join('\n'),
  );
  return running;
}
