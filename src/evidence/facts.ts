/**
 * @module evidence/facts
 * Every fact of the document that a profile can speak to, each with its `x-source`, where it is
 * written (a JSON pointer into `spec/openapi.yaml` as written, `$ref`s followed) and where its
 * `x-source` mark stands (read by src/contract/marks.ts, the one reader of marks, which follows
 * `$ref`s): per operation that it answers, its statuses and media types, the
 * defaults, maximum and offset reading of its parameters, its default order, and per JSON location
 * of each response body (`/data/*\/wwwUpdateDate`, the profile's own pointer patterns) the field
 * (required or not), its type, nullability, enum and format. Read from the loaded contract's written
 * document, so it follows the same release trimming as everything else.
 */
import {
  child,
  escapeSegment,
  isNode,
  isSource,
  place,
  rootPlace,
  type Contract,
  type Operation,
  type Placed,
  type Source,
} from '../contract/index.js';

/**
 * What a fact is about (an operation, a status, a field's type...). Not to be confused with its
 * kind of fact, the `x-source` mark (`source` below, read by src/contract/marks.ts).
 */
export type FactType =
  | 'operation'
  | 'status'
  | 'media-type'
  | 'default'
  | 'maximum'
  | 'offset'
  | 'order'
  | 'field'
  | 'type'
  | 'nullable'
  | 'enum'
  | 'format';

export interface DocumentFact {
  /** Stable key: `<operationId> <kind> <status?> <subject>`; the same fact on every night. */
  id: string;
  operationId: string;
  /** `GET /packages`. */
  operation: string;
  kind: FactType;
  /** Response status of a body or media-type fact. */
  status?: string;
  /** What the fact is about: `?limit`, `/data/*\/title`, `application/json`, a status. */
  subject: string;
  /** The document's value: a default, a maximum, `page`/`item`, `field asc|desc`, types, enum, format, true. */
  value: unknown;
  source: Source;
  /** JSON pointer (`#/components/...`) of the node the fact is written in. */
  at: string;
  /** JSON pointer of the node carrying the `x-source` mark the fact inherits. */
  markAt: string;
}

/** A JSON location a response body declares, beyond its facts: where a new field would go. */
export interface DeclaredLocation {
  operationId: string;
  status: string;
  pointer: string;
  /** The location takes any key below it (no `properties`, or `additionalProperties`). */
  open: boolean;
  /** Written pointer of the schema node holding this object's `properties` (for a proposed field). */
  propertiesAt?: string;
}

export interface DocumentFacts {
  facts: DocumentFact[];
  locations: DeclaredLocation[];
}

type Node = Record<string, unknown>;

function types(node: Node): string[] {
  const t = node.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.map(String);
  return [];
}

/** One location's merged reading over every schema node that applies there. */
interface Shape {
  nodes: Placed[];
  types: Set<string>;
  enum?: unknown[];
  format?: string;
  required: Set<string>;
  /** Property name -> the nodes declaring it. */
  properties: Map<string, Placed[]>;
  items: Placed[];
  open: boolean;
  propertiesAt?: string;
}

/**
 * Merges a schema with its combinators: `allOf` members all apply (their `required` adds up),
 * `oneOf`/`anyOf` branches are alternatives (a field is required only when every branch requires it).
 */
function shapeOf(root: Node, placed: readonly Placed[]): Shape {
  const shape: Shape = {
    nodes: [...placed],
    types: new Set(),
    required: new Set(),
    properties: new Map(),
    items: [],
    open: false,
  };
  const enums: unknown[] = [];
  let sawEnum = false;
  const visit = (p: Placed, depth: number): Set<string> => {
    const required = new Set<string>(
      Array.isArray(p.node.required) ? p.node.required.map(String) : [],
    );
    if (depth > 12) return required;
    for (const t of types(p.node)) shape.types.add(t);
    if (Array.isArray(p.node.enum)) {
      sawEnum = true;
      enums.push(...(p.node.enum as unknown[]));
    }
    if (typeof p.node.format === 'string') shape.format ??= p.node.format;
    if (isNode(p.node.properties)) {
      shape.propertiesAt ??= `${p.at}/properties`;
      for (const name of Object.keys(p.node.properties)) {
        const prop = child(root, p, 'properties', name);
        if (!prop) continue;
        const list = shape.properties.get(name) ?? [];
        list.push(prop);
        shape.properties.set(name, list);
      }
    }
    if (p.node.additionalProperties !== undefined && p.node.additionalProperties !== false)
      shape.open = true;
    const items = child(root, p, 'items');
    if (items) shape.items.push(items);
    (Array.isArray(p.node.allOf) ? p.node.allOf : []).forEach((_, i) => {
      const member = child(root, p, 'allOf', String(i));
      if (member) for (const r of visit(member, depth + 1)) required.add(r);
    });
    for (const combinator of ['oneOf', 'anyOf'] as const) {
      const branches = Array.isArray(p.node[combinator]) ? (p.node[combinator] as unknown[]) : [];
      let common: Set<string> | undefined;
      branches.forEach((_, i) => {
        const branch = child(root, p, combinator, String(i));
        if (!branch) return;
        const r = visit(branch, depth + 1);
        common = common ? new Set([...common].filter((x) => r.has(x))) : r;
      });
      for (const r of common ?? []) required.add(r);
    }
    return required;
  };
  let common: Set<string> | undefined;
  for (const p of placed) {
    const r = visit(p, 0);
    common = common ? new Set([...common].filter((x) => r.has(x))) : r;
  }
  shape.required = common ?? new Set();
  if (sawEnum) shape.enum = [...new Set(enums)];
  if (shape.properties.size > 0) shape.types.add('object');
  else if (shape.types.has('object')) shape.open = true;
  if (shape.items.length > 0) shape.types.add('array');
  return shape;
}

/** The node a location's facts are written in: the first that declares it (a field in two shapes keeps its first). */
function first(placed: readonly Placed[]): Placed {
  return placed[0];
}

function factId(op: string, kind: FactType, status: string | undefined, subject: string): string {
  return [op, kind, status, subject].filter((x) => x !== undefined).join(' ');
}

/** Adds one fact of an operation: written at `at`, carrying the mark of `p`. */
type AddFact = (
  kind: FactType,
  subject: string,
  value: unknown,
  p: Placed,
  status?: string,
  at?: string,
) => void;

function factAdder(op: Operation, out: DocumentFacts): AddFact {
  const label = `${op.method.toUpperCase()} ${op.path}`;
  return (kind, subject, value, p, status, at = p.at) => {
    out.facts.push({
      id: factId(op.operationId, kind, status, subject),
      operationId: op.operationId,
      operation: label,
      kind,
      status,
      subject,
      value,
      source: p.source,
      at,
      markAt: p.markAt,
    });
  };
}

/** Body facts of one response, walking its schema location by location. */
function bodyFacts(
  root: Node,
  op: Operation,
  status: string,
  schema: Placed,
  out: DocumentFacts,
): void {
  const addFact = factAdder(op, out);
  const add = (kind: FactType, pointer: string, value: unknown, p: Placed) =>
    addFact(kind, pointer, value, p, status);
  const walk = (placed: Placed[], pointer: string, required: boolean, depth: number): void => {
    const shape = shapeOf(root, placed);
    const p = first(placed);
    out.locations.push({
      operationId: op.operationId,
      status,
      pointer,
      open: shape.open,
      propertiesAt: shape.propertiesAt,
    });
    if (pointer !== '') {
      add('field', pointer, { required }, p);
      const nonNull = [...shape.types].filter((t) => t !== 'null').sort();
      if (nonNull.length > 0) add('type', pointer, nonNull, p);
      if (shape.types.size > 0) add('nullable', pointer, shape.types.has('null'), p);
      if (shape.enum) add('enum', pointer, shape.enum, p);
      if (shape.format) add('format', pointer, shape.format, p);
    }
    if (depth > 10) return;
    for (const [name, nodes] of [...shape.properties].sort(([a], [b]) => (a < b ? -1 : 1)))
      walk(nodes, `${pointer}/${escapeSegment(name)}`, shape.required.has(name), depth + 1);
    if (shape.items.length > 0) walk(shape.items, `${pointer}/*`, false, depth + 1);
  };
  walk([schema], '', false, 0);
}

/** The written pointer of an operation: `#/paths/~1packages/get`. */
function operationAt(op: Operation): string {
  return `#/paths/${escapeSegment(op.path)}/${op.method}`;
}

/** The parameters of an operation: path-level then operation-level, as the document lists them. */
function parametersOf(root: Node, placedOp: Placed, opNode: Placed): Placed[] {
  const params: Placed[] = [];
  for (const [owner, key] of [
    [placedOp, 'parameters'],
    [opNode, 'parameters'],
  ] as const) {
    const list = owner.node[key];
    if (Array.isArray(list))
      list.forEach((_, i) => {
        const p = child(
          root,
          { ...owner, source: opNode.source, markAt: opNode.markAt },
          key,
          String(i),
        );
        if (p) params.push(p);
      });
  }
  return params;
}

/** The default and maximum of `limit`, and how `offset` counts. */
function pagingFacts(root: Node, params: readonly Placed[], add: AddFact): void {
  for (const p of params) {
    if (p.node.in !== 'query') continue;
    const name = String(p.node.name);
    const schema = child(root, p, 'schema');
    if (!schema) continue;
    if (name === 'limit') {
      if (schema.node.default !== undefined)
        add('default', '?limit', schema.node.default, schema, undefined, `${schema.at}/default`);
      if (typeof schema.node.maximum === 'number')
        add('maximum', '?limit', schema.node.maximum, schema, undefined, `${schema.at}/maximum`);
    }
    if (name === 'offset')
      add('offset', '?offset', p.node['x-offset'] ?? 'page', p, undefined, p.at);
  }
}

/** The default order: the `order` default's field with the `orderDirection` default. */
function defaultOrderFact(root: Node, params: readonly Placed[], add: AddFact): void {
  const byName = new Map(params.map((p) => [String(p.node.name), p]));
  const order = byName.get('order');
  const orderSchema = order && child(root, order, 'schema');
  const direction = byName.get('orderDirection');
  const directionSchema = direction && child(root, direction, 'schema');
  const firstOf = (v: unknown): unknown => (Array.isArray(v) ? (v as unknown[])[0] : v);
  const key = firstOf(orderSchema?.node.default);
  if (!order || !orderSchema || typeof key !== 'string') return;
  const sortFields = (order.node['x-sort'] ?? {}) as Record<string, string>;
  const dir = firstOf(directionSchema?.node.default) ?? 'asc';
  add(
    'order',
    '?order',
    `${sortFields[key] ?? key} ${String(dir)}`,
    orderSchema,
    undefined,
    `${orderSchema.at}/default`,
  );
}

/** Each declared status, its media types, and the facts of its JSON body. */
function responseFacts(
  root: Node,
  op: Operation,
  opNode: Placed,
  add: AddFact,
  out: DocumentFacts,
): void {
  const responses = child(root, opNode, 'responses');
  if (!responses) return;
  for (const status of Object.keys(responses.node).sort()) {
    if (!/^\d{3}$/.test(status)) continue;
    const response = child(root, responses, status);
    if (!response) continue;
    add('status', status, Number(status), response);
    const content = isNode(response.node.content) ? response.node.content : {};
    for (const media of Object.keys(content).sort()) {
      const holder = child(root, response, 'content', media);
      const schema = holder && child(root, holder, 'schema');
      // The media type takes the mark of its schema where that has its own (a file's bytes).
      const mark = schema && isSource(schema.node['x-source']) ? schema : response;
      add('media-type', media, media, mark, status, holder?.at ?? response.at);
      if (media === 'application/json' && schema) bodyFacts(root, op, status, schema, out);
    }
  }
}

function operationFacts(root: Node, op: Operation, out: DocumentFacts): void {
  const placedOp = place(
    root,
    (root.paths as Node)?.[op.path],
    `#/paths/${escapeSegment(op.path)}`,
    rootPlace(root),
  );
  const opNode = placedOp && child(root, placedOp, op.method);
  if (!placedOp || !opNode) return;
  const add = factAdder(op, out);
  add(
    'operation',
    `${op.method.toUpperCase()} ${op.path}`,
    true,
    opNode,
    undefined,
    operationAt(op),
  );
  const params = parametersOf(root, placedOp, opNode);
  pagingFacts(root, params, add);
  defaultOrderFact(root, params, add);
  responseFacts(root, op, opNode, add, out);
}

/** Every fact of the contract's operations that a profile can confirm or contradict. */
export function documentFacts(
  contract: Pick<Contract, 'operations' | 'sourceDocument'>,
): DocumentFacts {
  const root = contract.sourceDocument as unknown as Node;
  const out: DocumentFacts = { facts: [], locations: [] };
  for (const op of contract.operations) operationFacts(root, op, out);
  return out;
}
