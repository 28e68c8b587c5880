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
import type { RunningMock } from '../../api/types.js';
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = process.env.SCOPE_PROOF_STATE === 'redis' ? await TestRedis.start() : undefined;
  const options = { adminToken: ADMIN_TOKEN, ...(redis ? { state: redis.url } : {}) };
  const mocks: RunningMock[] = [await startMock(options)];
  if (redis) mocks.push(await startMock(options));
  const gate = await barrier();
  project.provide('scopeProof', {
    origins: mocks.map((m) => m.origin),
    adminToken: ADMIN_TOKEN,
    demoKey: mocks[0].keys.fullAccess,
    barrier: gate.url,
  });
  return async () => {
    await Promise.all(mocks.map((m) => m.close()));
    gate.server.close();
    await redis?.stop();
  };
}
