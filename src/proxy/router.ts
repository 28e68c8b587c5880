/**
 * @module proxy/router
 * Which operation of the document does a proxied request belong to? A small segment trie built
 * from `contract.operations`: at every level a literal segment is tried before a `{param}`, so
 * `/product-parts/attributes` is never taken for an `{orderable_id}`, and the walk backtracks
 * when a literal branch dead-ends deeper down.
 */
import type { HttpMethod, Operation } from '../contract/index.js';

export interface RouteMatch {
  operation: Operation;
  /** Path parameters, percent-decoded (raw when an escape is malformed). */
  params: Record<string, string>;
}

interface Leaf {
  operation: Operation;
  /** The template's parameter names, in path order (templates sharing a node may name them differently). */
  names: string[];
}

interface Node {
  literals: Map<string, Node>;
  param?: Node;
  leaves: Partial<Record<HttpMethod, Leaf>>;
}

const PARAM = /^\{([^}]+)\}$/;

function emptyNode(): Node {
  return { literals: new Map(), leaves: {} };
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/**
 * Builds the matcher once. `rawPath` is the path below the base path, still percent-encoded
 * (`/product-parts/ABC%23PBF`); HEAD falls back to GET where the document has no HEAD operation.
 */
export function createRouter(operations: readonly Operation[]): (method: string, rawPath: string) => RouteMatch | undefined {
  const root = emptyNode();
  for (const op of operations) {
    let node = root;
    const names: string[] = [];
    for (const segment of segmentsOf(op.path)) {
      const param = PARAM.exec(segment);
      if (param) {
        names.push(param[1]);
        node = node.param ??= emptyNode();
      } else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = emptyNode()));
        node = next;
      }
    }
    node.leaves[op.method] = { operation: op, names };
  }

  const walk = (node: Node, rest: string[], method: HttpMethod, values: string[]): RouteMatch | undefined => {
    if (rest.length === 0) {
      const leaf = node.leaves[method] ?? (method === 'head' ? node.leaves.get : undefined);
      if (!leaf) return undefined;
      return { operation: leaf.operation, params: Object.fromEntries(leaf.names.map((name, i) => [name, values[i]])) };
    }
    const [head, ...tail] = rest;
    const literal = node.literals.get(decodeSegment(head));
    const viaLiteral = literal && walk(literal, tail, method, values);
    if (viaLiteral) return viaLiteral;
    return node.param && walk(node.param, tail, method, [...values, decodeSegment(head)]);
  };

  return (method, rawPath) => {
    const lower = method.toLowerCase();
    if (lower !== 'get' && lower !== 'head' && lower !== 'post') return undefined;
    return walk(root, segmentsOf(rawPath), lower, []);
  };
}
