/**
 * @module contract/marks
 * The one reading of `x-source` marks: a node's own mark wins, else it inherits its parent's
 * (the document's introduction states this), for the dereferenced schemas (`markOf`, the kinds
 * table) and for the document as written (`place`/`child`, which follow local `$ref`s and say
 * where each node and the mark it inherits are written, as JSON pointers, for the evidence
 * ledger and its proposed patch).
 */
import { isSource, type Source } from './model.js';
import { escapeSegment, segmentsOf } from './pointer.js';

type Node = Record<string, unknown>;

export function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A node's own `x-source`, else the one it inherits. */
export function markOf(node: unknown, inherited: Source): Source {
  const value = isNode(node) ? node['x-source'] : undefined;
  return isSource(value) ? value : inherited;
}

/** A node of the written document with where it stands and which mark applies to it. */
export interface Placed {
  node: Node;
  /** JSON pointer (`#/components/...`) where the node is written, `$ref`s followed. */
  at: string;
  source: Source;
  /** JSON pointer of the node carrying the mark that applies. */
  markAt: string;
}

/** Where a walk of the written document starts: the root, marked `documented` by default. */
export function rootPlace(root: Node): Placed {
  return { node: root, at: '#', source: 'documented', markAt: '#' };
}

/** Resolves local `$ref`s (at most 20 hops); the node's own mark wins, then the target's, then what it inherits. */
export function place(
  root: Node,
  value: unknown,
  at: string,
  inherited: Placed,
): Placed | undefined {
  let node = value;
  let where = at;
  let source = inherited.source;
  let markAt = inherited.markAt;
  for (let hops = 0; isNode(node) && hops < 20; hops++) {
    const mark = node['x-source'];
    if (isSource(mark)) {
      source = mark;
      markAt = where;
    }
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    where = ref;
    node = segmentsOf(ref).reduce<unknown>((n, key) => (isNode(n) ? n[key] : undefined), root);
  }
  return isNode(node) ? { node, at: where, source, markAt } : undefined;
}

/** The node at `key` (and `more` below it) of a placed node, placed in its turn. */
export function child(
  root: Node,
  parent: Placed,
  key: string | number,
  ...more: string[]
): Placed | undefined {
  const path = [String(key), ...more];
  let value: unknown = parent.node;
  for (const k of path)
    value = isNode(value) || Array.isArray(value) ? (value as Node)[k] : undefined;
  return place(root, value, `${parent.at}/${path.map(escapeSegment).join('/')}`, parent);
}
