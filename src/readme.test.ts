/**
 * @module readme.test
 * Every command the README shows is run or checked here, so the landing page cannot rot:
 * - `npm start -- ...` and `npx web-data-mock ...` start the real mock (the proxy with `--proxy`)
 *   from the README's own flags on a free port;
 * - `curl` lines run for real (the real curl) against those servers, and the status a line's
 *   comment names (`# 429 ...`; 200 when it names none) is the status it must get;
 * - `npx web-data-contract ...` lines must be accepted by the command's flag parser (the whole
 *   command runs in contract-tests/meta/cli.test.ts and `npm run contract`);
 * - `docker run ...` lines go through the image's real entry point (docker/entrypoint.sh) with
 *   the package's commands stubbed, and what the entry point would run must be accepted (or, for
 *   the mock, started); scripts/ci-container.sh builds and runs the image itself;
 * - `npm install|start|test` and `docker build` name scripts and files that exist;
 * - `kill $!` stops what the block started in the background (for real, through npx, in
 *   src/package/installed.test.ts and src/package/bin.test.ts).
 * A command of any other kind fails the test: showing a new one means teaching this test.
 * And every relative link of the README and of each Markdown page the package ships resolves to
 * a file the package ships, so the installed README's links work.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentFor } from './suite/cli.js';
import { main } from './server/cli/cli.js';
import { parseProxyArgs, startProxy, type RunningProxy } from './proxy/index.js';
import type { RunningServer } from './server/listen.js';
import { quietly } from './testing/expected-output.js';

const ROOT = new URL('..', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const PACKAGE = JSON.parse(read('package.json')) as {
  name: string;
  scripts: Record<string, string>;
};

interface Command {
  /** The line as the README shows it (continuations joined). */
  text: string;
  /** Its comment, if any (`# 429: ...`). */
  comment: string;
  env: Record<string, string>;
  words: string[];
}

/** The README's `sh` blocks, each as its commands. */
function shBlocks(markdown: string): Command[][] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((line) => line.trim())
      .map(parseCommand),
  );
}

function parseCommand(line: string): Command {
  const at = line.search(/\s#\s/);
  const text = (at < 0 ? line : line.slice(0, at)).trim();
  const comment = at < 0 ? '' : line.slice(at).replace(/^\s*#\s*/, '');
  // The shell itself splits the words (quotes, $VARIABLES: unset ones are empty).
  const all = execFileSync('sh', ['-c', `set -- ${text.replace(/&$/, '')}; printf '%s\\0' "$@"`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, PWD: '/work' },
  })
    .split('\0')
    .slice(0, -1);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(all[0] ?? '')) {
    const [name, ...value] = all.shift()!.split('=');
    env[name] = value.join('=');
  }
  return { text, comment, env, words: all };
}

/** The status a curl line's comment promises: its first three-digit number, else 200. */
const expectedStatus = (comment: string) => Number(/\b([1-5]\d\d)\b/.exec(comment)?.[1] ?? 200);

const servers: { mock?: RunningServer; proxy?: RunningProxy } = {};
afterAll(async () => {
  await servers.proxy?.close();
  await servers.mock?.close();
});

/** The README's addresses (mock on 4010, proxy on 4020) -> the servers this test started. */
function rewrite(text: string): string {
  let out = text;
  if (servers.mock)
    out = out.replace(/http:\/\/(localhost|127\.0\.0\.1):4010/g, servers.mock.origin);
  if (servers.proxy)
    out = out.replace(/http:\/\/(localhost|127\.0\.0\.1):4020/g, servers.proxy.origin);
  return out;
}

async function startMock(args: string[]): Promise<void> {
  await servers.proxy?.close();
  await servers.mock?.close();
  servers.proxy = undefined;
  servers.mock = await quietly(() => main([...args, '--port', '0', '--host', '127.0.0.1'], {}));
  expect(servers.mock, `mock flags ${args.join(' ')}`).toBeDefined();
}

async function startProxyFrom(args: string[], env: Record<string, string>): Promise<void> {
  await servers.proxy?.close();
  const options = parseProxyArgs([...args.map(rewrite), '--port', '0', '--host', '127.0.0.1'], env);
  expect(options, `proxy flags ${args.join(' ')}`).toBeDefined();
  servers.proxy = await startProxy({ ...options!, log: () => {} });
}

/** What docker/entrypoint.sh runs for these arguments: [program, ...argv]. */
function throughEntrypoint(args: string[]): string[] {
  const bin = mkdtempSync(join(tmpdir(), 'readme-entrypoint-'));
  try {
    for (const name of ['web-data-mock', 'web-data-contract']) {
      writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\0' ${name} "$@"\n`);
      chmodSync(join(bin, name), 0o755);
    }
    const out = execFileSync('sh', [new URL('docker/entrypoint.sh', ROOT).pathname, ...args], {
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH}`, HOST: '0.0.0.0', PORT: '4010' },
    });
    return out.split('\0').slice(0, -1);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

/** docker run's own options that take a value (the ones a README line may use). */
const DOCKER_VALUE_OPTIONS = new Set([
  '-p',
  '--publish',
  '-e',
  '--env',
  '-v',
  '--volume',
  '--name',
]);

async function checkDockerRun(words: string[]): Promise<void> {
  let i = 2;
  while (words[i]?.startsWith('-')) i += DOCKER_VALUE_OPTIONS.has(words[i]) ? 2 : 1;
  const image = words[i];
  expect(image, 'docker run names the image').toBe(PACKAGE.name);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]) as string[];
  const args = words.length > i + 1 ? words.slice(i + 1) : cmd;
  const [program, ...argv] = throughEntrypoint(args);
  if (program === 'web-data-contract') {
    expect(environmentFor(argv, {}).help).toBe(false);
  } else {
    expect(program).toBe('web-data-mock');
    expect(argv.slice(0, 4)).toEqual(['--host', '0.0.0.0', '--port', '4010']);
    if (argv.includes('--proxy'))
      expect(parseProxyArgs(argv, { WEB_DATA_API_KEY: 'k' })).toBeDefined();
    else await startMock(argv);
  }
}

async function run(command: Command): Promise<void> {
  const [program, verb, ...rest] = command.words;
  if (program === 'npm' && verb === 'install' && rest.length === 0) return;
  if (program === 'npm' && (verb === 'start' || verb === 'test') && rest.length === 0) {
    expect(PACKAGE.scripts[verb]).toBeTruthy();
    return;
  }
  const mockArgs =
    program === 'npm' && verb === 'start' && rest[0] === '--'
      ? rest.slice(1)
      : program === 'npx' && verb === 'web-data-mock'
        ? rest
        : undefined;
  if (mockArgs) {
    if (mockArgs.includes('--proxy')) await startProxyFrom(mockArgs, command.env);
    else await startMock(mockArgs);
    return;
  }
  if (program === 'npx' && verb === 'web-data-contract') {
    expect(environmentFor(rest, command.env).help).toBe(false);
    return;
  }
  if (program === 'curl') {
    // Asynchronously: the servers answering it run in this very process.
    const { stdout: status } = await promisify(execFile)('sh', [
      '-c',
      `${rewrite(command.text)} -s -o /dev/null -w '%{http_code}'`,
    ]);
    expect(Number(status), command.text).toBe(expectedStatus(command.comment));
    return;
  }
  if (program === 'docker' && verb === 'build') {
    expect(command.words.at(-1)).toBe('.');
    expect(command.words).toContain(PACKAGE.name);
    expect(existsSync(new URL('Dockerfile', ROOT))).toBe(true);
    return;
  }
  if (program === 'docker' && verb === 'run') return checkDockerRun(command.words);
  if (program === 'kill' && verb === undefined && /\bkill \$!$/.test(command.text)) {
    expect(servers.mock ?? servers.proxy, 'kill $! follows a command started with &').toBeDefined();
    await servers.proxy?.close();
    await servers.mock?.close();
    servers.proxy = servers.mock = undefined;
    return;
  }
  throw new Error(`the README shows a command this test does not know: ${command.text}`);
}

describe('the commands in README.md', () => {
  const blocks = shBlocks(read('README.md'));

  it('starts with npm install, npm start, npm test', () => {
    expect(blocks[0].map((c) => c.words.join(' '))).toEqual([
      'npm install',
      'npm start',
      'npm test',
    ]);
  });

  blocks.forEach((block, n) => {
    it(`block ${n + 1}: ${block[0].text.slice(0, 60)}`, { timeout: 60_000 }, async () => {
      for (const command of block) await run(command);
    });
  });
});

/** The relative link targets of a Markdown text (inline and reference-style), outside code blocks. */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const targets = [
    ...[...text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]),
  ];
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'));
}

describe('links in the package', () => {
  // What `npm pack` puts in the tarball (the `files` list applied; no build needed for the list).
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: new URL('.', ROOT),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { files: { path: string }[] }[];
  const files = new Set(packed[0].files.map((f) => f.path));
  const pages = [...files].filter((path) => path.endsWith('.md'));

  it('ship the README and the docs pages it links to', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/mock.md');
  });

  it('carry no test helper (src/testing is for our own tests)', () => {
    const helpers = [...files].filter((path) =>
      /(^|\/)(testing|test-[a-z-]+)(\/|\.js$)/.test(path),
    );
    expect(helpers).toEqual([]);
  });

  it.each(pages)('%s: every relative link resolves to a file the package ships', (page) => {
    const links = relativeLinks(read(page));
    if (page === 'README.md') expect(links.length).toBeGreaterThan(10);
    const broken = links.filter(
      (link) =>
        !files.has(posix.normalize(posix.join(posix.dirname(page), decodeURI(link.split('#')[0])))),
    );
    expect(broken).toEqual([]);
  });
});
