/**
 * @module meta/harness
 * What the meta-tests share: a real mock behind a mutating proxy, and running the suite's own
 * checks against it with a fresh context (nothing cached from an earlier, differently changed target),
 * and running a command of the package (`runNode`) as a user's shell would, and the compiled mock
 * on a free port (`compiledMock`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningServer } from '../../src/server/listen.js';
import {
  createContext,
  runToEnd,
  type Check,
  type CheckContext,
  type Scope,
} from '../../src/suite/support/context.js';
import type { Finding } from '../../src/suite/support/findings.js';
import { readOptions } from '../../src/suite/support/options.js';
import {
  startMutatingProxy,
  type MutatingProxy,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
  type ProxyOptions,
} from './mutating-proxy.js';

/** The repository (or the installed package): where the commands run from. */
export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

export interface Target {
  mock: RunningServer;
  proxy: MutatingProxy;
  close(): Promise<void>;
}

/** A mock of every release (downloads included) behind a mutating proxy. */
export async function startTarget(options: ProxyOptions = {}): Promise<Target> {
  const mock = await startMockServer({ apiVersion: 'unreleased', validateResponses: false });
  const proxy = await startMutatingProxy(mock.url, options);
  return {
    mock,
    proxy,
    async close() {
      await proxy.close();
      await mock.close();
    },
  };
}

/** Waits the client asked for, instead of sleeping (a 429's Retry-After). */
export interface Run {
  findings: Finding[];
  slept: number[];
  ctx: CheckContext;
}

/** Runs checks in order against the proxy with one context, as one suite run would. */
export async function runChecks(
  target: Target,
  checks: readonly Check[],
  scope: Scope | undefined,
  mutation: Mutation | undefined,
  env: Record<string, string> = {},
): Promise<Run> {
  target.proxy.use(mutation);
  const slept: number[] = [];
  const ctx = await createContext(
    { ...readOptions(env), baseUrl: target.proxy.url },
    { sleep: async (ms) => void slept.push(ms) },
  );
  const findings: Finding[] = [];
  for (const check of checks) findings.push(...(await runToEnd(check, ctx, scope)));
  return { findings, slept, ctx };
}

export type Body = Record<string, unknown> & {
  data?: Record<string, unknown>[];
  pagination?: Record<string, unknown>;
};

/** A response mutation applied only to one path (below the base URL) and successful JSON answers. */
export function onList(
  path: string,
  change: (body: Body, req: ProxiedRequest, res: ProxiedResponse) => void,
): Mutation {
  return {
    response(res, req) {
      if (req.path === path && res.status === 200 && res.json) change(res.json as Body, req, res);
    },
  };
}

/** Calls `change` on every `href` inside a JSON value. */
export function mapHrefs(value: unknown, change: (href: string) => string): void {
  if (Array.isArray(value)) value.forEach((v) => mapHrefs(v, change));
  else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'href' && typeof v === 'string') obj[k] = change(v);
      else mapHrefs(v, change);
    }
  }
}

/** Every value under a key anywhere inside a JSON value, changed in place. */
export function mapField(value: unknown, key: string, change: (v: unknown) => unknown): void {
  if (Array.isArray(value)) value.forEach((v) => mapField(v, key, change));
  else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (k === key) obj[k] = change(v);
      else mapField(v, key, change);
    }
  }
}

export function failures(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'failure');
}

/** What a command run to its end printed (stdout and stderr, interleaved) and its exit status. */
export interface Ran {
  code: number | null;
  output: string;
}

/**
 * Node running `args` (a bin of the package, or vitest) from the repository, in an environment
 * without the caller's suite, vitest and step-summary variables, plus `env`: so a meta-test's run
 * depends only on what it passes.
 */
export function runNode(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONTRACT_') && !k.startsWith('VITEST') && k !== 'GITHUB_STEP_SUMMARY',
    ),
  );
  const child = spawn(process.execPath, args, {
    cwd: REPOSITORY,
    env: { ...clean, NO_COLOR: '1', ...env },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** The demo keys of the bundled keys file, by the suite's variables. */
export const DEMO_KEYS = {
  CONTRACT_API_KEY: 'demo-unlimited-key',
  CONTRACT_RESTRICTED_API_KEY: 'demo-no-documents-key',
  CONTRACT_RATE_LIMIT_API_KEY: 'demo-low-tier-key',
};

/**
 * The compiled mock (`bin/web-data-mock.js`, `dist/`) with `args` on a free port; resolves to
 * the production base URL its banner names. The caller kills `child` when done.
 */
export function compiledMock(args: readonly string[], started: ChildProcess[]): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(REPOSITORY, 'bin', 'web-data-mock.js'), ...args, '--port', '0'],
    { cwd: REPOSITORY, env: { PATH: process.env.PATH, NO_COLOR: '1' } },
  );
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const url = /^\s+production\s+(http\S+)$/m.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => reject(new Error(`the mock exited (${code}): ${output}`)));
  });
}
