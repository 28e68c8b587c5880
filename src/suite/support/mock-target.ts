/**
 * @module support/mock-target
 * Whether a base URL is one of our own mocks (started by the user, with their `--records`, their
 * `--vary` seed): its `/examples.json` says so, with the release it serves, its seed and its base
 * path. Such a target gets every check the bundled mock gets (`Prefer` errors, cross-reference
 * matching, the examples' identifiers), so a team proves its records file keeps the mock inside
 * the contract. Anything else (no such file, another shape, no answer) is a live target.
 */
import { withDeadline } from '../../net/deadline.js';

/** What a web-data mock's `/examples.json` tells about it. */
export interface MockTarget {
  release: string;
  seed: number;
}

const EXAMPLES_PATH = '/examples.json';
/** The probe is one small GET; a live service that hangs on it is still a live target. */
const PROBE_MS = 5000;
/** A web-data mock's examples are a few KB; a larger answer is not one. */
const MAX_BYTES = 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The mock behind `baseUrl`, or undefined when it is not one of ours. No key is sent. */
export async function mockTarget(baseUrl: string): Promise<MockTarget | undefined> {
  const base = new URL(baseUrl);
  try {
    // The deadline covers the body too, and holds the command's process open while it runs.
    const text = await withDeadline(PROBE_MS, async (signal) => {
      const res = await fetch(new URL(EXAMPLES_PATH, base.origin), { signal, redirect: 'error' });
      return res.ok ? await res.text() : '';
    });
    if (text.length > MAX_BYTES) return undefined;
    const body: unknown = text ? JSON.parse(text) : undefined;
    if (
      isRecord(body) &&
      typeof body.release === 'string' &&
      typeof body.seed === 'number' &&
      base.pathname.replace(/\/+$/, '').endsWith(String(body.basePath)) &&
      isRecord(body.ids) &&
      isRecord(body.crossReference)
    )
      return { release: body.release, seed: body.seed };
  } catch {
    // Not JSON, no answer, a redirect: a live target.
  }
  return undefined;
}
