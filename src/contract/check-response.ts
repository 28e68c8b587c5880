/**
 * @module contract/check-response
 * The rules every response is held to, whoever received it (the mock's self-check, the proxy, the
 * contract suite): the status is declared, the declared headers are there and typed, the rate-limit
 * headers agree, the media type is the declared one, a JSON body parses and fits its schema, and
 * (when asked) fields the schema does not declare are noted. Findings carry the suite's rule
 * names; what to do with them (a 500, a log line, a failed test) is the caller's business.
 * A body's findings are grouped: one per rule, pointer pattern (array indices as `*`) and
 * expectation, with how many places of the body broke it, so a page of 100 records with the same
 * fault is one finding; at most `MAX_BODY_FINDINGS` of them, the rest counted in a last one.
 */
import type { Operation, ResponseSpec, Schema, Source } from './model.js';
import { collectUndeclared, findAbsent, findForms, MAX_UNDECLARED_PATTERNS } from './undeclared.js';
import { capName, MAX_NAME_LENGTH } from './names.js';
import { pointerPattern } from './pointer.js';
import type { Validators } from './validators.js';

/**
 * The body as far as the caller read it. `none`: no body by HTTP (HEAD, 204, 205, 304);
 * `streamed`: not read as JSON (a file, a non-JSON type), so only its headers are checked;
 * `too-large`: JSON the caller would not buffer or could not check.
 */
export type ResponseBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; encodingError?: string }
  | { kind: 'invalid-json'; text: string; error?: string; encodingError?: string }
  | { kind: 'streamed' }
  | { kind: 'too-large' };

/** The rule names findings carry. */
export type ResponseRule =
  | 'undeclared-status'
  | 'headers'
  | 'rate-limit-headers'
  | 'rate-limit-remaining'
  | 'content-type'
  | 'json'
  | 'schema'
  | 'inferred-shape'
  | 'undeclared-field'
  | 'absent-field'
  | 'conflict-form';

export interface ResponseFinding {
  /**
   * `violation`: a rule of the document broken; `undeclared`: a field the document does not name
   * (drift it allows); `absent`: a declared field left out where presence is not stated; `form`: the
   * side of a source/reference conflict the mock does not serve.
   */
  kind: 'violation' | 'undeclared' | 'absent' | 'form';
  rule: ResponseRule;
  /** JSON pointer into the body, `header:<name>`, or `status`. */
  pointer: string;
  /** What the document asks for, e.g. `type: string`. */
  expected: string;
  /** The value found, unformatted (callers cut it to their report's length). */
  actual: unknown;
  message: string;
  /** An `undeclared` finding: how many fields of the body share its pointer pattern. */
  count?: number;
  /** Whose rule it is: the source's (`documented`), the vendor reference's (`reference`) or our guess (`inferred`). */
  source: Source;
}

export interface ResponseUnderCheck {
  status: number;
  /** The request method; a HEAD answer has no body to check. */
  method: string;
  /** Reads a response header by lower-case name. */
  header: (name: string) => string | null | undefined;
  body: ResponseBody;
}

export interface CheckResponseOptions {
  /** Also walk a JSON body for fields the schema does not declare (`kind: 'undeclared'` findings). */
  undeclaredFields?: boolean;
  /** Also walk it for declared fields it leaves out where presence is not stated (`kind: 'absent'` findings). */
  absentFields?: boolean;
  /** Also name where it uses the form of a source/reference conflict the mock does not serve (`kind: 'form'` findings). */
  formsSeen?: boolean;
}

/** Schema findings one body may give (grouped by pattern); the rest are counted in one more. */
export const MAX_BODY_FINDINGS = 100;

/** Statuses that carry no body by HTTP, whatever their headers say. */
export const NO_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

const RATE_LIMIT_HEADER = /^header:x-ratelimit-/;
const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json$/;

/** `Application/JSON; charset=utf-8` -> `application/json`; '' when absent. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** `application/json` and structured-syntax suffixes such as `application/problem+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaType);
}

/** Every rule of the document this response breaks; empty when it conforms. */
export function checkResponse(
  validators: Validators,
  op: Operation,
  response: ResponseUnderCheck,
  options: CheckResponseOptions = {},
): ResponseFinding[] {
  const { status, header } = response;
  const declared = validators.responseFor(op, status);
  if (!declared) return [undeclaredStatus(op, status)];
  const findings = headerFindings(validators, op, status, header);
  const body =
    response.method.toUpperCase() === 'HEAD' ? ({ kind: 'none' } as const) : response.body;
  if (body.kind === 'none') return findings;
  const contentType = contentTypeFinding(declared, header('content-type') ?? null);
  if (contentType) findings.push(contentType);
  findings.push(...jsonFindings(body));
  if (body.kind === 'json' && declared.jsonSchema) {
    findings.push(...schemaFindings(validators, op, status, body.value, declared));
    const seen = { schema: declared.jsonSchema, value: body.value, source: declared.source };
    if (options.undeclaredFields) findings.push(...undeclaredFindings(seen));
    if (options.formsSeen) findings.push(...formFindings(seen));
    if (options.absentFields) findings.push(...absentFindings(seen));
  }
  return findings;
}

function undeclaredStatus(op: Operation, status: number): ResponseFinding {
  const statuses = [...op.responses.keys()].join(', ');
  return violation(
    'undeclared-status',
    'status',
    `one of the declared statuses: ${statuses}`,
    status,
    `status ${status} is not declared for ${op.operationId}`,
    'documented',
  );
}

/** The declared headers are there and typed, and the rate-limit headers agree. */
function headerFindings(
  validators: Validators,
  op: Operation,
  status: number,
  header: ResponseUnderCheck['header'],
): ResponseFinding[] {
  const findings: ResponseFinding[] = [];
  for (const v of validators.checkResponseHeaders(op, status, header)) {
    // The rate-limit headers are the source's ("may" carry): a malformed one breaks a documented rule, whatever the shape's source.
    const rateLimit = RATE_LIMIT_HEADER.test(v.pointer);
    findings.push(
      violation(
        rateLimit ? 'rate-limit-headers' : 'headers',
        v.pointer,
        v.rule,
        v.actual,
        v.message,
        rateLimit ? 'documented' : v.source,
      ),
    );
  }
  const limit = header('x-ratelimit-limit');
  const remaining = header('x-ratelimit-remaining');
  if (limit != null && remaining != null && Number(remaining) > Number(limit)) {
    findings.push(
      violation(
        'rate-limit-remaining',
        'header:x-ratelimit-remaining',
        `at most x-ratelimit-limit (${limit})`,
        remaining,
        'x-ratelimit-remaining exceeds x-ratelimit-limit',
        'documented',
      ),
    );
  }
  return findings;
}

/** The media type is the declared one (when the document declares any). */
function contentTypeFinding(
  declared: ResponseSpec,
  contentType: string | null,
): ResponseFinding | undefined {
  const mediaType = mediaTypeOf(contentType);
  if (declared.contentTypes.length === 0 || declared.contentTypes.includes(mediaType))
    return undefined;
  // A JSON answer is stated by the source for every operation; other types are only as sure as the operation.
  const jsonDeclared = declared.contentTypes.some(isJsonMediaType);
  return violation(
    'content-type',
    'header:content-type',
    declared.contentTypes.join(' or '),
    contentType,
    `content type ${mediaType || '(none)'} is not the declared one`,
    jsonDeclared ? 'documented' : declared.source,
  );
}

/** A JSON body is UTF-8 and parses. */
function jsonFindings(body: ResponseBody): ResponseFinding[] {
  const findings: ResponseFinding[] = [];
  if ((body.kind === 'json' || body.kind === 'invalid-json') && body.encodingError)
    findings.push(
      violation(
        'json',
        '',
        'a UTF-8 body',
        'invalid UTF-8',
        `body is ${body.encodingError}`,
        'documented',
      ),
    );
  if (body.kind === 'invalid-json')
    findings.push(
      violation(
        'json',
        '',
        'a JSON body',
        body.text,
        `body is not valid JSON${body.error ? `: ${body.error}` : ''}`,
        'documented',
      ),
    );
  return findings;
}

/** The body fits its schema, its findings grouped by pointer pattern. */
function schemaFindings(
  validators: Validators,
  op: Operation,
  status: number,
  value: unknown,
  declared: ResponseSpec,
): ResponseFinding[] {
  return groupByPattern(
    validators
      .checkResponseBody(op, status, value)
      .map((v) =>
        violation(
          v.source === 'inferred' ? 'inferred-shape' : 'schema',
          v.pointer,
          v.rule,
          v.actual,
          v.message,
          v.source,
        ),
      ),
    declared.source,
  );
}

/** A JSON body and the declared schema it is walked against, with whose rule that schema is. */
interface WalkedBody {
  schema: Schema;
  value: unknown;
  source: Source;
}

/** Fields the schema does not declare, one finding per pattern (the rest counted in one more). */
function undeclaredFindings({ schema, value, source }: WalkedBody): ResponseFinding[] {
  const undeclared = collectUndeclared(schema, value);
  const findings: ResponseFinding[] = undeclared.fields.map((field) => ({
    kind: 'undeclared',
    rule: 'undeclared-field',
    pointer: field.pointer,
    expected: 'only fields the document declares',
    actual: field.sample,
    message: `${field.pattern} is not declared by the document (${field.count} in this body)`,
    count: field.count,
    source,
  }));
  if (undeclared.omitted > 0)
    findings.push({
      kind: 'undeclared',
      rule: 'undeclared-field',
      pointer: '',
      expected: `at most ${MAX_UNDECLARED_PATTERNS} undeclared field patterns listed per body`,
      actual: undeclared.omitted,
      message: `${undeclared.omitted} more undeclared field(s) of further patterns left out`,
      count: undeclared.omitted,
      source,
    });
  return findings;
}

/** Where the body uses the side of a source/reference conflict the mock does not serve. */
function formFindings({ schema, value, source }: WalkedBody): ResponseFinding[] {
  return findForms(schema, value).map((seen) => ({
    kind: 'form',
    rule: 'conflict-form',
    pointer: seen.pointer,
    expected: 'either form the document accepts',
    actual: seen.form,
    message: `${seen.pointer || '(body)'} uses ${seen.form}`,
    source,
  }));
}

/** Declared fields the body leaves out where presence is not stated. */
function absentFindings({ schema, value, source }: WalkedBody): ResponseFinding[] {
  return findAbsent(schema, value).map((pointer) => ({
    kind: 'absent',
    rule: 'absent-field',
    pointer,
    expected: 'every field the document declares (presence not stated)',
    actual: 'absent',
    message: `${pointer} is declared but absent`,
    source,
  }));
}

/**
 * One finding per rule, pointer pattern and expectation, the first place's pointer and value kept
 * with the count of places; at most MAX_BODY_FINDINGS, the places of the rest counted in one more.
 */
function groupByPattern(found: readonly ResponseFinding[], source: Source): ResponseFinding[] {
  const groups = new Map<string, ResponseFinding>();
  let omitted = 0;
  for (const f of found) {
    const key = `${f.rule} ${pointerPattern(f.pointer)} ${f.expected}`;
    const seen = groups.get(key);
    if (seen) seen.count = (seen.count ?? 1) + 1;
    else if (groups.size >= MAX_BODY_FINDINGS) omitted++;
    else {
      const pointer = capPointer(f.pointer);
      groups.set(key, { ...f, pointer, message: f.message.replace(f.pointer, pointer), count: 1 });
    }
  }
  const out = [...groups.values()].map((f) =>
    f.count === 1
      ? f
      : {
          ...f,
          message: `${f.message} (and ${f.count! - 1} more place(s) of the pattern ${pointerPattern(f.pointer)})`,
        },
  );
  if (omitted > 0)
    out.push({
      ...violation(
        'schema',
        '',
        `at most ${MAX_BODY_FINDINGS} kinds of schema findings listed per body`,
        omitted,
        `${omitted} more schema finding(s) of further kinds left out`,
        source,
      ),
      count: omitted,
    });
  return out;
}

/** A pointer whose every name is cut to MAX_NAME_LENGTH (a server's name may be any length). */
function capPointer(pointer: string): string {
  return pointer.length <= MAX_NAME_LENGTH ? pointer : pointer.split('/').map(capName).join('/');
}

function violation(
  rule: ResponseRule,
  pointer: string,
  expected: string,
  actual: unknown,
  message: string,
  source: Source,
): ResponseFinding {
  return { kind: 'violation', rule, pointer, expected, actual, message, source };
}
