/**
 * @module contract/router
 * Which operation of the document does a request belong to, and if none, which methods would the
 * path allow (for a 405)? A small segment trie built once from `contract.operations`: at every
 * level a literal segment is tried before a `{param}`, so `/product-parts/attributes` is never
 * taken for an `{orderable_id}`, and the walk backtracks when a literal branch dead-ends deeper
 * down (`/documents/agile-id` alone is a `{dcp_id}`). The most specific path that has operations
 * decides the method too: GET `/product-parts/search` is a 405 (POST only), not the part "search"
 * (DECISIONS.md 89). Used by the proxy to route, and by the mock for its 404-or-405 decision.
 */
import type { HttpMethod, Operation } from './model.js';
import type { InputProblem } from './validators.js';

export interface RouteMatch {
  operation: Operation;
  /** Path parameters, strictly percent-decoded: a segment with a malformed escape is left out and named in `problems`. */
  params: Record<string, string>;
  /** One per malformed escape, in the mock's 400 shape. */
  problems: InputProblem[];
}

/** The path is the document's, the method is not: the methods it allows, upper case (GET implies HEAD). */
export interface MethodMismatch {
  allowed: string[];
}

export interface OperationRouter {
  /**
   * `rawPath` is the path below the base path, still percent-encoded (`/product-parts/ABC%23PBF`).
   * HEAD maps to the GET operation unless the path has a HEAD operation of its own. Undefined when
   * no template matches the path at all.
   */
  match(method: string, rawPath: string): RouteMatch | MethodMismatch | undefined;
  /** The methods the most specific template matching `rawPath` allows; empty when none matches. */
  allowed(rawPath: string): string[];
}

export interface RouterOptions {
  /**
   * `strict` (default): an empty segment (`/products/`, `//products`) matches nothing, as the
   * mock's Hono routes do. `skip`: empty segments are ignored, so `/products/` is `listProducts`.
   */
  emptySegments?: 'strict' | 'skip';
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
/** The order `allowed` lists methods in (an `Allow` header reads the same every time). */
const METHOD_ORDER: readonly HttpMethod[] = ['get', 'head', 'post'];

function emptyNode(): Node {
  return { literals: new Map(), leaves: {} };
}

/** Decodes one raw path segment; undefined when the percent-escape is malformed. */
function decodePathSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Path parameters decoded strictly from raw values, named by the template's parameters; a malformed one is a problem, not a value. */
function decodeParameters(
  names: readonly string[],
  rawValues: readonly string[],
): { params: Record<string, string>; problems: InputProblem[] } {
  const params: Record<string, string> = {};
  const problems: InputProblem[] = [];
  names.forEach((name, i) => {
    const raw = rawValues[i] ?? '';
    const decoded = decodePathSegment(raw);
    if (decoded === undefined) {
      problems.push({
        in: 'path',
        name,
        rule: 'valid percent-encoding (RFC 3986)',
        message: `path parameter "${name}" has a malformed percent-escape`,
        received: raw,
      });
    } else params[name] = decoded;
  });
  return { params, problems };
}

/**
 * The path parameters of a known template in a raw path below the base path (for callers whose
 * own router already chose the operation). Malformed escapes come back as problems.
 */
export function decodePathParameters(
  template: string,
  rawPath: string,
): { params: Record<string, string>; problems: InputProblem[] } {
  const templateSegments = template.split('/');
  const rawSegments = rawPath.split('/');
  const names: string[] = [];
  const values: string[] = [];
  templateSegments.forEach((segment, k) => {
    const param = PARAM.exec(segment);
    if (!param) return;
    names.push(param[1]);
    values.push(rawSegments[k] ?? '');
  });
  return decodeParameters(names, values);
}

/** The upper-case methods a trie node answers; GET routes also answer HEAD, as HTTP allows. */
function methodsOf(node: Node): string[] {
  const methods = METHOD_ORDER.filter((m) => node.leaves[m] || (m === 'head' && node.leaves.get));
  return methods.map((m) => m.toUpperCase());
}

/** Builds the router once from the operations of one contract. */
export function createOperationRouter(
  operations: readonly Operation[],
  options: RouterOptions = {},
): OperationRouter {
  const skipEmpty = options.emptySegments === 'skip';
  const segmentsOf = (path: string): string[] => {
    const segments = path.split('/');
    // A path starts with '/': the first segment is the empty one before it.
    if (segments[0] === '') segments.shift();
    return skipEmpty ? segments.filter((s) => s !== '') : segments;
  };

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

  /** The first node, literal branches first, where the path ends and `accept` holds; with the raw parameter values on the way. */
  const find = (
    segments: readonly string[],
    accept: (node: Node) => boolean,
  ): { node: Node; values: string[] } | undefined => {
    const values: string[] = [];
    const walk = (node: Node, i: number): Node | undefined => {
      if (i === segments.length) return accept(node) ? node : undefined;
      const raw = segments[i];
      const literal = node.literals.get(decodePathSegment(raw) ?? raw);
      const viaLiteral = literal && walk(literal, i + 1);
      if (viaLiteral) return viaLiteral;
      // A parameter is never empty (`[^/]+` in the mock's terms).
      if (!node.param || raw === '') return undefined;
      values.push(raw);
      const viaParam = walk(node.param, i + 1);
      if (!viaParam) values.pop();
      return viaParam;
    };
    const node = walk(root, 0);
    return node && { node, values };
  };

  const leafFor = (node: Node, method: string): Leaf | undefined => {
    const lower = method.toLowerCase();
    if (lower === 'head') return node.leaves.head ?? node.leaves.get;
    return lower === 'get' || lower === 'post' ? node.leaves[lower] : undefined;
  };

  const allowed = (segments: readonly string[]): string[] => {
    const found = find(segments, (node) => methodsOf(node).length > 0);
    return found ? methodsOf(found.node) : [];
  };

  return {
    match(method, rawPath) {
      const found = find(segmentsOf(rawPath), (node) => methodsOf(node).length > 0);
      if (!found) return undefined;
      const leaf = leafFor(found.node, method);
      if (!leaf) return { allowed: methodsOf(found.node) };
      return { operation: leaf.operation, ...decodeParameters(leaf.names, found.values) };
    },
    allowed: (rawPath) => allowed(segmentsOf(rawPath)),
  };
}
