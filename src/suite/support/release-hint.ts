/**
 * @module support/release-hint
 * Whether a failing target looks like an older release of the API: operations answering 404 "No
 * such path" that arrived after that release, and absent fields that arrived after it (`x-since`),
 * while every operation that did answer with a success existed in it. The hint names the newest
 * release that fits and the flag that checks the target as that release. The shapes of the
 * releases are read from the document (`shapesOf`); the judgement is pure (`releaseHint`).
 */
import {
  compareReleases,
  loadContract,
  sinceOf,
  type Contract,
  type Release,
} from '../../contract/index.js';
import type { ReleaseHint } from '../../api/types.js';
import type { Finding } from './findings.js';

// Public: the report's shape is defined in api/types.ts.
export type { ReleaseHint };

/** What the document says a release had. */
export interface ReleaseShape {
  release: Release;
  operations: ReadonlySet<string>;
}

/** The releases older than the one checked, each with its operations; the fields with their `x-since`. */
export interface ReleaseShapes {
  checked: ReleaseShape;
  older: ReleaseShape[];
  /** Record field name -> the release that introduced it (fields with an `x-since` only). */
  fieldSince: ReadonlyMap<string, Release>;
}

/** An answer saying the path itself is unknown (the API's 404 for a route it does not serve). */
const UNKNOWN_PATH = /no such path|unknown path/i;

/** Every property of every schema that carries an `x-since`, by name (the oldest when names repeat). */
function fieldReleases(document: unknown): Map<string, Release> {
  const out = new Map<string, Release>();
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const properties = (node as { properties?: unknown }).properties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const [name, schema] of Object.entries(properties)) {
        const since = sinceOf(schema, document);
        const known = out.get(name);
        if (since && (!known || compareReleases(since, known) < 0)) out.set(name, since);
      }
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(document);
  return out;
}

/** Reads, from the document, what each release older than the checked one had. */
export async function shapesOf(contract: Contract): Promise<ReleaseShapes> {
  const shape = (c: Contract): ReleaseShape => ({
    release: c.release,
    operations: new Set(c.operations.map((op) => op.operationId)),
  });
  const older = contract.releases.filter((r) => compareReleases(r, contract.release) < 0);
  const contracts = await Promise.all(older.map((release) => loadContract({ release })));
  return {
    checked: shape(contract),
    older: contracts.map(shape).sort((a, b) => compareReleases(a.release, b.release)),
    fieldSince: fieldReleases(contract.sourceDocument),
  };
}

/**
 * The release the findings fit, if an older one does. `succeeded`: operations that answered a real
 * request with a success (a release without them cannot be the target's).
 */
export function releaseHint(
  findings: readonly Finding[],
  succeeded: ReadonlySet<string>,
  shapes: ReleaseShapes,
): ReleaseHint | undefined {
  const unknown = new Set(
    findings
      .filter((f) => f.status === 404 && UNKNOWN_PATH.test(f.actual ?? ''))
      .map((f) => f.operationId),
  );
  const absent = new Map<string, Release>();
  for (const f of findings) {
    if (f.rule !== 'absent-field' || !f.pointer) continue;
    const name = f.pointer.slice(f.pointer.lastIndexOf('/') + 1);
    const since = shapes.fieldSince.get(name);
    if (since) absent.set(name, since);
  }
  const fits = shapes.older.filter((shape) => {
    const missing = (op: string) => shapes.checked.operations.has(op) && !shape.operations.has(op);
    const laterFields = [...absent.values()].filter((s) => compareReleases(s, shape.release) > 0);
    return (
      (unknown.size > 0 || laterFields.length > 0) &&
      [...unknown].every(missing) &&
      ![...succeeded].some(missing)
    );
  });
  const newest = fits.at(-1);
  if (!newest) return undefined;
  return {
    release: newest.release,
    alsoFits: fits.slice(0, -1).map((s) => s.release),
    unknownPaths: [...unknown].sort(),
    laterFields: [...absent]
      .filter(([, since]) => compareReleases(since, newest.release) > 0)
      .map(([name, since]) => ({ name, since })),
  };
}
