/**
 * @module validators
 * The one ajv setup for everyone: request parameters and bodies for the mock, response bodies and
 * headers for the mock's self-check, the contract suite and the proxy. Compiled once per contract.
 */
import { createRequire } from 'node:module';
import type { Options } from 'ajv';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import {
  isSource,
  type Contract,
  type Operation,
  type Parameter,
  type ResponseSpec,
  type Schema,
  type Source,
} from './model.js';
import { declaredResponse } from './operations.js';
import { unescapeSegment } from './pointer.js';
import { preparedValidator, type Setup } from './prepared-validators.js';

/** One broken rule in a request, as the mock reports it in a 400 body. */
export interface InputProblem {
  in: 'query' | 'path' | 'header' | 'body';
  /** Parameter name, or JSON pointer into the body. */
  name: string;
  rule: string;
  message: string;
  received?: unknown;
}

/** One broken rule in a response, as the suite and the proxy report it. */
export interface Violation {
  /** JSON pointer into the body (`/data/3/title`), or `header:<name>`, or `status`. */
  pointer: string;
  /** e.g. `type: string`, `required: productId`, `enum: Active, Inactive`. */
  rule: string;
  message: string;
  /** Whether the broken schema is stated by the source, shown by the vendor's reference, or inferred by us. */
  source: Source;
  actual?: unknown;
}

/** Keywords the document uses that are OpenAPI or project annotations, not JSON Schema. */
const ANNOTATIONS = [
  'x-source',
  'x-since',
  'x-shape-version',
  'x-alternative-of',
  'x-presence',
  'x-form',
  'example',
  'xml',
  'externalDocs',
  'discriminator',
];

const requireCjs = createRequire(import.meta.url);

/**
 * One ajv of a setup. ajv's compiler (some 90 modules) loads here, on first use: a start whose
 * validators were all prepared at build time (prepared-validators.ts) never loads it. `code` is
 * for the build, which asks for standalone source.
 */
export function createAjv(options: { useDefaults: boolean; code?: Options['code'] }): Ajv2020 {
  const { Ajv2020: Ajv } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = requireCjs('ajv-formats') as typeof import('ajv-formats');
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    useDefaults: options.useDefaults,
    // Checking each schema against the JSON Schema meta-schema first compiles the meta-schema,
    // the largest compile of a start; every schema given here is the document's or our own, and
    // tests check them all against it (schemas-valid.test.ts).
    validateSchema: false,
    code: options.code,
  });
  addFormats.default(ajv);
  for (const keyword of ANNOTATIONS)
    ajv.addKeyword({ keyword, schemaType: ['string', 'object', 'array', 'boolean', 'number'] });
  return ajv;
}

/** The rule an ajv error broke, in the document's own words. */
export function ruleOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `type: ${String(p.type)}`;
    case 'enum':
      return `enum: ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `const: ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return `required: ${String(p.missingProperty)}`;
    case 'additionalProperties':
      return `additionalProperties: false (${String(p.additionalProperty)})`;
    case 'format':
      return `format: ${String(p.format)}`;
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
    case 'minLength':
    case 'maxLength':
      return `${error.keyword}: ${String(p.limit)}`;
    default:
      return error.keyword;
  }
}

/** The pointer an error is about; for `required`, the missing property itself. */
function pointerOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${String(p.missingProperty)}`;
  if (error.keyword === 'additionalProperties')
    return `${error.instancePath}/${String(p.additionalProperty)}`;
  return error.instancePath;
}

function messageOf(error: ErrorObject, pointer: string): string {
  if (error.keyword === 'required') return `${pointer} is required but missing`;
  return `${pointer || '(body)'} ${error.message ?? 'is invalid'}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapeSegment(raw);
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The nearest `x-source` on the way from the root schema to the schema that failed. */
function sourceAlong(root: Schema, schemaPath: string, fallback: Source): Source {
  let node: unknown = root;
  let source = (root['x-source'] as Source | undefined) ?? fallback;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (!raw || node === null || typeof node !== 'object') break;
    node = (node as Record<string, unknown>)[unescapeSegment(raw)];
    const here =
      node && typeof node === 'object' ? (node as Record<string, unknown>)['x-source'] : undefined;
    if (isSource(here)) source = here;
  }
  return source;
}

/**
 * For each failed `oneOf`/`anyOf`, keeps only the errors of the branch that came closest, so a
 * report says "title must be string" rather than listing every branch's complaints.
 */
export function closestBranchErrors(errors: ErrorObject[]): ErrorObject[] {
  let result = errors;
  const combinators = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  for (const combinator of combinators) {
    const prefix = `${combinator.schemaPath}/`;
    const byBranch = new Map<string, ErrorObject[]>();
    for (const e of result) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const branch = e.schemaPath.slice(prefix.length).split('/')[0];
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
    }
    if (byBranch.size === 0) continue;
    // Fewest errors wins; on a tie, the branch that got deepest into the value (a branch that
    // fails only on the value's own type did not match it at all).
    const depth = (errs: ErrorObject[]) =>
      Math.max(...errs.map((e) => e.instancePath.split('/').length));
    const best = [...byBranch.values()].sort(
      (a, b) => a.length - b.length || depth(b) - depth(a),
    )[0];
    result = result.filter(
      (e) => e === combinator || !e.schemaPath.startsWith(prefix) || best.includes(e),
    );
    if (best.length > 0) result = result.filter((e) => e !== combinator);
  }
  return result;
}

export interface ParsedInput {
  query: Record<string, unknown>;
  path: Record<string, string>;
}

export interface Validators {
  /** Typed query and path values with defaults applied, or every problem found. */
  parseParameters(
    op: Operation,
    query: [string, string][],
    path: Record<string, string>,
  ): { input: ParsedInput; problems: InputProblem[] };
  /** Problems in a parsed JSON body (empty when valid). Fills in the schema's defaults in place. */
  checkRequestBody(op: Operation, body: unknown): InputProblem[];
  /** Violations of the declared body schema for this status (empty when valid). */
  checkResponseBody(op: Operation, status: number, body: unknown): Violation[];
  /** Missing or mistyped declared headers. `get` reads a header by lower-case name. */
  checkResponseHeaders(
    op: Operation,
    status: number,
    get: (name: string) => string | null | undefined,
  ): Violation[];
  /** The declared response for a status, or undefined when the status is undeclared. */
  responseFor(op: Operation, status: number): ResponseSpec | undefined;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Turns one query string into the type its schema asks for; leaves it a string when it is not. */
function coerce(raw: string, schema: Schema): unknown {
  const type = schema.type;
  if (type === 'integer' && INTEGER.test(raw)) {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : raw;
  }
  if (type === 'number' && NUMBER.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * An integer query value too large to hold exactly (beyond 2^53 - 1) is no number the schema
 * could judge, but it is an integer: the problem names the bound it breaks, as it would for 101.
 */
function beyondSafeInteger(name: string, raw: string, schema: Schema): InputProblem | undefined {
  if (schema.type !== 'integer' || !INTEGER.test(raw) || Number.isSafeInteger(Number(raw)))
    return undefined;
  const [keyword, comparison, bound] = raw.startsWith('-')
    ? (['minimum', '>=', schema.minimum ?? Number.MIN_SAFE_INTEGER] as const)
    : (['maximum', '<=', schema.maximum ?? Number.MAX_SAFE_INTEGER] as const);
  return {
    in: 'query',
    name,
    rule: `${keyword}: ${String(bound)}`,
    message: `query parameter "${name}" must be ${comparison} ${String(bound)}`,
    received: raw,
  };
}

/** Builds the validators for one contract; each schema is compiled on first use. */
/** `build` once per key, then the kept result (keys are the contract's own objects). */
function memoized<K, V>(build: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined && !kept.has(key)) kept.set(key, (value = build(key)));
    return value as V;
  };
}

/** The JSON schema of an operation's parameters as one object keyed `in:name` (headers aside). */
function parameterObjectSchema(op: Operation): Schema {
  const properties: Record<string, Schema> = {};
  for (const p of op.parameters) if (p.in !== 'header') properties[`${p.in}:${p.name}`] = p.schema;
  return {
    type: 'object',
    properties,
    required: op.parameters.filter((p) => p.required).map((p) => `${p.in}:${p.name}`),
  };
}

/**
 * ajv's standalone code (CommonJS) of each schema's validator, compiled with the run-time setup:
 * what the build writes and prepared-validators.ts loads.
 */
export function standaloneSources(wanted: readonly { setup: Setup; schema: Schema }[]): string[] {
  const { _ } = requireCjs('ajv') as typeof import('ajv');
  const standalone = requireCjs('ajv/dist/standalone/index.js') as (
    ajv: Ajv2020,
    validate: ValidateFunction,
  ) => string;
  const code = { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` };
  const ajvs: Record<Setup, () => Ajv2020> = {
    plain: once(() => createAjv({ useDefaults: false, code })),
    defaults: once(() => createAjv({ useDefaults: true, code })),
  };
  return wanted.map(({ setup, schema }) =>
    standalone(ajvs[setup](), ajvs[setup]().compile(schema)),
  );
}

/** The schemas whose validators the build prepares for a contract: each operation's parameters and request body. */
export function schemasToPrepare(contract: Contract): { setup: Setup; schema: Schema }[] {
  return contract.operations.flatMap((op) => [
    { setup: 'defaults' as const, schema: parameterObjectSchema(op) },
    ...(op.requestBody ? [{ setup: 'defaults' as const, schema: op.requestBody.schema }] : []),
  ]);
}

/**
 * The query as `query:name` values, coerced by each declared schema (comma-joined arrays split),
 * and the problems of names not declared or given twice.
 */
function readQuery(
  declared: Map<string, Parameter>,
  query: Iterable<[string, string]>,
): { values: Record<string, unknown>; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const values: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [name, raw] of query) {
    const param = declared.get(name);
    if (!param) {
      problems.push({
        in: 'query',
        name,
        rule: `declared parameters: ${[...declared.keys()].join(', ') || 'none'}`,
        message: `unknown query parameter "${name}"`,
        received: raw,
      });
      continue;
    }
    if (seen.has(name)) {
      problems.push({
        in: 'query',
        name,
        rule: 'at most once',
        message: `query parameter "${name}" given more than once`,
        received: raw,
      });
      continue;
    }
    seen.add(name);
    const beyond = beyondSafeInteger(name, raw, param.schema);
    if (beyond) {
      problems.push(beyond);
      continue;
    }
    const itemSchema = (param.schema.items ?? {}) as Schema;
    values[`query:${name}`] = param.commaJoined
      ? raw.split(',').map((item) => coerce(item, itemSchema))
      : coerce(raw, param.schema);
  }
  return { values, problems };
}

/** ajv's errors on the `in:name` parameter object, as the mock's 400 names them. */
function parameterProblems(errors: ErrorObject[], values: Record<string, unknown>): InputProblem[] {
  return closestBranchErrors(errors).map((e) => {
    const key =
      e.keyword === 'required'
        ? String((e.params as { missingProperty: string }).missingProperty)
        : e.instancePath.split('/')[1];
    const [where, name] = key.split(':') as [InputProblem['in'], string];
    const item = e.instancePath.split('/')[2];
    const received = item === undefined ? values[key] : (values[key] as unknown[])[Number(item)];
    const what = e.keyword === 'required' ? 'is required' : (e.message ?? 'is invalid');
    return {
      in: where,
      name,
      rule: ruleOf(e),
      message: `${where} parameter "${name}" ${what}`,
      received,
    };
  });
}

/** The `in:name` values split back into query and path input. */
function toParsedInput(values: Record<string, unknown>): ParsedInput {
  const input: ParsedInput = { query: {}, path: {} };
  for (const [key, value] of Object.entries(values)) {
    const [where, name] = key.split(':');
    if (where === 'query') input.query[name] = value;
    else input.path[name] = value as string;
  }
  return input;
}

/** ajv's errors on a request body, as the mock's 400 names them. */
function bodyProblems(errors: ErrorObject[], data: unknown): InputProblem[] {
  return closestBranchErrors(errors).map((e) => {
    const pointer = pointerOf(e);
    return {
      in: 'body',
      name: pointer,
      rule: ruleOf(e),
      message: messageOf(e, pointer),
      received: valueAt(data, e.keyword === 'required' ? e.instancePath : pointer),
    };
  });
}

/** ajv's errors on a response body, with the kind of fact of the rule each one breaks. */
function bodyViolations(errors: ErrorObject[], response: ResponseSpec, body: unknown): Violation[] {
  return closestBranchErrors(errors).map((e) => {
    const pointer = pointerOf(e);
    return {
      pointer,
      rule: ruleOf(e),
      message: messageOf(e, pointer),
      source: sourceAlong(response.jsonSchema!, e.schemaPath, response.source),
      actual: valueAt(body, e.keyword === 'required' ? e.instancePath : pointer),
    };
  });
}

/** The declared headers of a response that are missing (when required) or break their schema. */
function headerViolations(
  response: ResponseSpec,
  get: (name: string) => string | null | undefined,
  compiled: (schema: Schema) => ValidateFunction,
): Violation[] {
  const violations: Violation[] = [];
  for (const header of response.headers) {
    const raw = get(header.name);
    if (raw === null || raw === undefined) {
      if (header.required)
        violations.push({
          pointer: `header:${header.name}`,
          rule: 'required header',
          message: `header ${header.name} is missing`,
          source: response.source,
        });
      continue;
    }
    const check = compiled(header.schema);
    if (!check(coerce(raw, header.schema))) {
      const e = check.errors![0];
      violations.push({
        pointer: `header:${header.name}`,
        rule: ruleOf(e),
        message: `header ${header.name} ${e.message ?? 'is invalid'}`,
        source: response.source,
        actual: raw,
      });
    }
  }
  return violations;
}

/** `make()` on the first call, then the same value: an ajv instance costs its setup only when used. */
function once<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

export function createValidators(contract: Contract): Validators {
  const ajvs: Record<Setup, () => Ajv2020> = {
    plain: once(() => createAjv({ useDefaults: false })),
    defaults: once(() => createAjv({ useDefaults: true })),
  };
  // The build's validator for this very schema, else ajv's compile.
  const compile = (setup: Setup, schema: Schema) =>
    preparedValidator(setup, schema) ?? ajvs[setup]().compile(schema);

  // Compiled on first use and then kept: startup pays only for what is called, and each schema
  // object (shared across operations after dereferencing) is compiled once.
  const compiled = memoized((schema: Schema) => compile('plain', schema));
  const paramChecker = memoized((op: Operation) => compile('defaults', parameterObjectSchema(op)));
  // Request bodies get the schema's defaults (e.g. search `limit`) but, unlike parameters, no coercion.
  const bodyChecker = memoized((op: Operation) =>
    op.requestBody ? compile('defaults', op.requestBody.schema) : undefined,
  );
  const queryParametersOf = memoized(
    (op: Operation) =>
      new Map(op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p])),
  );
  // Operations not in this contract are a caller bug; fail loudly rather than validate nothing.
  const known = new Set(contract.operations);
  const assertKnown = (op: Operation) => {
    if (!known.has(op))
      throw new Error(`operation ${op.operationId} is not part of release ${contract.release}`);
  };

  return {
    responseFor: declaredResponse,

    parseParameters(op, query, path) {
      const { values, problems } = readQuery(queryParametersOf(op), query);
      for (const [name, raw] of Object.entries(path)) values[`path:${name}`] = raw;
      assertKnown(op);
      const check = paramChecker(op);
      if (!check(values)) problems.push(...parameterProblems(check.errors ?? [], values));
      return { input: toParsedInput(values), problems };
    },

    checkRequestBody(op, body) {
      assertKnown(op);
      const check = bodyChecker(op);
      if (!check || check(body)) return [];
      return bodyProblems(check.errors ?? [], body);
    },

    checkResponseBody(op, status, body) {
      const response = declaredResponse(op, status);
      if (!response?.jsonSchema) return [];
      const check = compiled(response.jsonSchema);
      if (check(body)) return [];
      return bodyViolations(check.errors ?? [], response, body);
    },

    checkResponseHeaders(op, status, get) {
      const response = declaredResponse(op, status);
      if (!response) return [];
      return headerViolations(response, get, compiled);
    },
  };
}

/** One broken rule in a file the user hands us (keys, tiers): where, which rule, in ajv's words. */
export interface SchemaProblem {
  /** JSON pointer into the file's data (`/keys/2/secret`). */
  pointer: string;
  rule: string;
  message: string;
}

/** One ajv for every configuration schema in the process: each instance pays its setup once. */
const configAjv = once(() => createAjv({ useDefaults: false }));
const configCheckers = new WeakMap<Schema, ValidateFunction>();

/**
 * Compiled once per schema object. ajv keeps no copy in its own cache (a schema built per call,
 * like a tier override, would stay there for good); the WeakMap keeps it while the schema lives.
 */
function configChecker(schema: Schema): ValidateFunction {
  let check = configCheckers.get(schema) ?? preparedValidator('plain', schema);
  if (!check) {
    const ajv = configAjv();
    check = ajv.compile(schema);
    ajv.removeSchema(schema);
  }
  configCheckers.set(schema, check);
  return check;
}

/**
 * A checker for a JSON Schema of our own (configuration files), with the same ajv setup as the
 * document's schemas. Problems never carry the offending value: a file may hold secrets.
 */
export function compileSchema(schema: Schema): (data: unknown) => SchemaProblem[] {
  const check = configChecker(schema);
  return (data) =>
    check(data)
      ? []
      : closestBranchErrors(check.errors ?? []).map((e) => ({
          pointer: pointerOf(e),
          rule: ruleOf(e),
          message: e.message ?? 'is invalid',
        }));
}
