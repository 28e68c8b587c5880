/**
 * @module scopes/proof/global-setup
 * One mock for all eight proof files (issue 38's proof of scopes): started here, once, on a
 * port; with `SCOPE_PROOF_STATE=redis`, two instances sharing one real Redis, the files taking
 * them in turn. Each file gets the origins and the admin token, and waits at a barrier (a small
 * HTTP server here) until all eight have arrived, so their runs truly overlap.
 */
import { createServer, type Server } from 'node:http';
import type { TestProject } from 'vitest/node';
import { startMock } from '../../index.js';
import { startMockServer } from '../../server/listen.js';
import { DEMO } from '../mock-app.js';
import { TestRedis } from '../redis-server.js';

export const PROOF_FILES = 8;
const ADMIN_TOKEN = 'scope-proof-admin-token';

export interface ScopeProofContext {
  origins: string[];
  adminToken: string;
  /** The demo key a file uses with scopes off. */
  demoKey: string;
  barrier: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    scopeProof: ScopeProofContext;
  }
}

/** Answers `/arrive` once PROOF_FILES requests are waiting (or after 60 s, so nothing hangs). */
function barrier(): Promise<{ server: Server; url: string }> {
  const waiting: (() => void)[] = [];
  const server = createServer((_request, response) => {
    const release = () => response.end('go');
    waiting.push(release);
    if (waiting.length >= PROOF_FILES) for (const go of waiting.splice(0)) go();
    else setTimeout(release, 60_000).unref();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/arrive` });
    }),
  );
}

interface Started {
  origin: string;
  close(): Promise<void>;
}

/**
 * Two instances on one Redis, each allowed 5 s per command (as the other Redis tests): at the
 * default 1 s, a CI machine busy with the package project stalled one command past it, and the
 * instance answered from local state as designed (docs/shared-state.md, "While running"),
 * which is not what this proof is about.
 */
async function fleet(redis: TestRedis): Promise<Started[]> {
  const start = () =>
    startMockServer({
      adminToken: ADMIN_TOKEN,
      stateUrl: redis.url,
      stateOptions: { commandTimeoutMs: 5000 },
    });
  return [await start(), await start()];
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = process.env.SCOPE_PROOF_STATE === 'redis' ? await TestRedis.start() : undefined;
  const mocks: Started[] = redis
    ? await fleet(redis)
    : [await startMock({ adminToken: ADMIN_TOKEN })];
  const gate = await barrier();
  project.provide('scopeProof', {
    origins: mocks.map((m) => m.origin),
    adminToken: ADMIN_TOKEN,
    demoKey: DEMO.production,
    barrier: gate.url,
  });
  return async () => {
    await Promise.all(mocks.map((m) => m.close()));
    gate.server.close();
    await redis?.stop();
  };
}
