/**
 * @module evidence/cli
 * `web-data-evidence <command>`: what was seen of a target, as files. Commands: `profile` (build
 * and merge observed profiles, profile-command.ts), `ledger` (the document's facts against a
 * profile, ledger-command.ts). Exit status: 0 done, 2 usage error (one line,
 * naming the flag or file and the rule), 1 anything else (one line too, never a stack trace).
 * Each command is one entry of `COMMANDS`, looked up as its own key only (`constructor` is no
 * command).
 */
import { isUsageError } from '../usage.js';
import { RecordingsError } from '../recordings/index.js';
import { showControls } from '../text/markdown.js';
import { LEDGER_USAGE, ledgerCommand } from './ledger-command.js';
import { EvidenceUsageError, PROFILE_USAGE, profileCommand } from './profile-command.js';

interface Command {
  summary: string;
  usage: string;
  run(argv: readonly string[]): Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  profile: {
    summary: 'build profile.json from recordings (--recordings) and merge profiles (--merge)',
    usage: PROFILE_USAGE,
    run: (argv) => profileCommand(argv),
  },
  ledger: {
    summary:
      'judge the document facts against a profile: evidence.md/.json/.html, a proposed patch',
    usage: LEDGER_USAGE,
    run: (argv) => ledgerCommand(argv),
  },
};

export function usage(): string {
  return [
    'Usage: web-data-evidence <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`),
    '',
    'web-data-evidence <command> --help for its options.',
    '',
  ].join('\n');
}

/** A message as one line a terminal shows as it is. */
const oneLine = (text: string): string => showControls(String(text).split('\n')[0]);

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(
      `web-data-evidence: unknown command "${oneLine(name)}" (commands: ${Object.keys(COMMANDS).join(', ')})\n`,
    );
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    // A recordings folder that cannot be read is the user's input, like a flag.
    const usage =
      error instanceof EvidenceUsageError ||
      error instanceof RecordingsError ||
      isUsageError(error);
    process.stderr.write(
      `web-data-evidence: ${oneLine((error as Error).message ?? String(error))}\n`,
    );
    return usage ? 2 : 1;
  }
}
