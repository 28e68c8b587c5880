/**
 * @module records/trial
 * A record a test puts is served on trial before it is taken: the edit laid over the dataset as it
 * stands (a copy of the environment, its caches empty), then every operation that will serve the
 * record answers as it would: the by-ID lookup, the family's list (filtered to the record), and
 * the parametric search where the family takes part (parts, and the product whose parts they are).
 * Each answer goes through the one judge (answer-judge.ts: checkResponse and the suite's own
 * judgements), and the record's hrefs are followed in the trial dataset, so an href to a record
 * that does not exist (or to itself, once put) is judged as the suite would see it. A refusal
 * names the operation and the pointer.
 */
import {
  collectHrefs,
  judgeHref,
  PAGING,
  type Contract,
  type Operation,
  type ResolvedHref,
  type Schema,
  type Validators,
} from '../../contract/index.js';
import { overlayDataset, type RecordEdit } from '../../state/records/overlay.js';
import { listingsOf, LIST_OPERATION, type ApiContext } from '../context.js';
import { Lru } from '../lru.js';
import {
  followRefusals,
  judgeAnswer,
  judgementLine,
  JSON_TYPE,
  type AnswerProblem,
} from '../stubs/answer-judge.js';
import type { RecordFamilyInfo, RecordProblem } from './record-schema.js';
import {
  answerText,
  followHrefOf,
  getInProcess,
  handle,
  type AnswerRequest,
} from '../stubs/sample-answer.js';
import type { Answer } from '../handlers/index.js';

/** Cached bodies a trial keeps: one record's few answers. */
const TRIAL_CACHE_ENTRIES = 64;
/** The search operation parts and products take part in, and its body's product member. */
const SEARCH = { operationId: 'searchProductParts', productField: 'productId' } as const;

/** The environment with the edit over it; the real one is left as it is. */
function trialOf(api: ApiContext, edit: RecordEdit): ApiContext {
  const overlay = overlayDataset(api.dataset, [edit]);
  return {
    ...api,
    dataset: overlay.dataset,
    listings: listingsOf(overlay.dataset, api.listings, overlay.touched),
    recordTexts: new Lru(TRIAL_CACHE_ENTRIES),
    encoded: new Lru(TRIAL_CACHE_ENTRIES),
  };
}

interface Served {
  op: Operation;
  /** The family's by-ID operation (the one whose answer is the record itself). */
  byId: Operation;
  run: (trial: ApiContext) => Answer;
  request: AnswerRequest;
  /** Where the record sits in the answer, found in its body. */
  find: (body: unknown) => unknown;
}

/** The largest page an operation serves: its `limit`'s maximum, in the query or (a search) the body. */
function maxLimit(op: Operation): number {
  const inQuery = op.parameters.find((p) => p.in === 'query' && p.name === PAGING.limit)?.schema;
  const properties = op.requestBody?.schema.properties as Record<string, Schema> | undefined;
  return Number((inQuery ?? properties?.[PAGING.limit])?.maximum ?? 10);
}

function itemIn(body: unknown, idField: string, id: string): unknown {
  const data = (body as { data?: unknown[] } | null)?.data;
  return Array.isArray(data)
    ? data.find((item) => (item as Record<string, unknown> | null)?.[idField] === id)
    : undefined;
}

/**
 * The family's list filtered to the record: the filter on its identifier (or on the field its
 * by-ID path takes), the largest page, and every `include` filter on (a discontinued tool is listed
 * only so); undefined when the list has no such filter.
 */
function listServing(
  list: Operation,
  info: RecordFamilyInfo,
  id: string,
  pathValue: string,
  validators: Validators,
): Served | undefined {
  const filters = list.parameters.filter((p) => p.in === 'query' && p.filter);
  // An exact filter first: the page then holds the record alone.
  const on = (field: string) =>
    filters.find((p) => p.filter!.field === field && p.filter!.match === 'exact') ??
    filters.find((p) => p.filter!.field === field);
  const byId = on(info.idField);
  const filter = byId ?? on(info.pathField);
  if (!filter) return undefined;
  const query: [string, string][] = [
    [filter.name, byId ? id : pathValue],
    [PAGING.limit, String(maxLimit(list))],
    ...filters
      .filter((p) => p.filter!.match === 'include')
      .map((p): [string, string] => [p.name, 'true']),
  ];
  const parsed = validators.parseParameters(list, query, {});
  if (parsed.problems.length > 0) return undefined;
  return {
    op: list,
    byId: info.byId,
    run: (trial) =>
      getInProcess(validators, trial, list, list.path, `?${new URLSearchParams(query)}`),
    request: { params: {}, query: parsed.input.query },
    find: (body) => itemIn(body, info.idField, id),
  };
}

/** The answers that serve the record: by ID, its list filtered to it, the search it shows in. */
function servings(
  contract: Contract,
  validators: Validators,
  info: RecordFamilyInfo,
  id: string,
  record: Record<string, unknown>,
): Served[] {
  const out: Served[] = [];
  const param = info.byId.parameters.find((p) => p.in === 'path')!;
  const value =
    typeof record[info.pathField] === 'string' ? (record[info.pathField] as string) : id;
  const rawPath = info.byId.path.replace(`{${param.name}}`, encodeURIComponent(value));
  out.push({
    op: info.byId,
    byId: info.byId,
    run: (trial) => getInProcess(validators, trial, info.byId, rawPath, ''),
    request: { params: { [param.name]: value }, query: {} },
    find: (body) => body,
  });
  const list = contract.operations.find((o) => o.operationId === LIST_OPERATION[info.family]);
  if (list) {
    const listed = listServing(list, info, id, value, validators);
    if (listed) out.push(listed);
  }
  const product =
    info.family === 'products' ? id : info.family === 'productParts' ? record.genericId : undefined;
  const searchOp = contract.operations.find((o) => o.operationId === SEARCH.operationId);
  if (searchOp && typeof product === 'string' && product !== '') {
    const body: Record<string, unknown> = {
      [SEARCH.productField]: product,
      [PAGING.limit]: maxLimit(searchOp),
    };
    if (validators.checkRequestBody(searchOp, body).length === 0)
      out.push({
        op: searchOp,
        byId: info.byId,
        run: (trial) => handle(trial, searchOp, { params: {}, query: {}, body }),
        request: { params: {}, query: {}, body },
        // A product is served by the search, not listed in it: the answer is judged whole.
        find: (answer) => (info.family === 'products' ? answer : itemIn(answer, info.idField, id)),
      });
  }
  return out;
}

/** A judged line as a record's problem: `"/x" served by getProduct: <what breaks>`. */
function problemOf(op: Operation, p: AnswerProblem): RecordProblem {
  const said = p.line.startsWith(`"${p.pointer}" `) ? p.line.slice(p.pointer.length + 3) : p.line;
  return {
    pointer: p.pointer,
    rule: `served by ${op.operationId}: ${said}`,
    message: `${op.operationId}: ${p.line}`,
    source: p.source,
  };
}

/** One serving's answer judged, or why it could not be served. */
async function judgeServing(
  served: Served,
  trial: ApiContext,
  validators: Validators,
  contract: Contract,
  followed: Map<string, number>,
): Promise<RecordProblem[]> {
  const { op } = served;
  let res: Answer;
  try {
    res = served.run(trial);
  } catch (error) {
    // A handler that cannot serve the record (a field it relies on absent or of another type).
    const message = error instanceof Error ? error.message : String(error);
    return [
      {
        pointer: '',
        rule: `served by ${op.operationId}: it cannot serve the record (${message.slice(0, 200)})`,
        message: `${op.operationId} cannot serve the record: ${message.slice(0, 200)}`,
        source: 'documented',
      },
    ];
  }
  let body: unknown;
  try {
    body = JSON.parse(answerText(res)) as unknown;
  } catch {
    body = undefined;
  }
  const judged = judgeAnswer(
    validators,
    op,
    {
      status: res.status,
      body,
      headers: { 'content-type': res.headers['content-type'] ?? JSON_TYPE },
    },
    { request: served.request },
  );
  const problems = judged.problems.map((p) => problemOf(op, p));
  if (res.status !== 200)
    problems.push({
      pointer: 'status',
      rule: `served by ${op.operationId}: answers ${res.status}, not 200`,
      message: `${op.operationId} answers ${res.status}, not 200, with the record in place`,
      source: 'documented',
    });
  const item = served.find(body);
  if (res.status === 200 && item === undefined)
    problems.push({
      pointer: '',
      rule: `served by ${op.operationId}: the record is not in the answer`,
      message: `${op.operationId} does not serve the record`,
      source: 'documented',
    });
  for (const p of await hrefProblems(item, trial, validators, contract, followed))
    problems.push(problemOf(op, p));
  return problems;
}

/** The record's hrefs as an answer serves them, judged and followed in the trial dataset. */
async function hrefProblems(
  item: unknown,
  trial: ApiContext,
  validators: Validators,
  contract: Contract,
  followed: Map<string, number>,
): Promise<AnswerProblem[]> {
  const problems: AnswerProblem[] = [];
  const resolved: ResolvedHref[] = [];
  for (const found of collectHrefs(item)) {
    const judged = judgeHref(found, contract.operations, trial.seed.options.baseUrl);
    if ('judgement' in judged)
      problems.push({
        pointer: found.pointer,
        line: judgementLine(judged.judgement),
        source: judged.judgement.source,
      });
    else resolved.push(judged);
  }
  const follow = followHrefOf(validators, trial);
  return [...problems, ...(await followRefusals(follow, resolved, undefined, followed))];
}

/**
 * Every problem the record would have where it is served (refusals and warnings alike, by
 * source), with the record put over `api`'s dataset on trial.
 */
export async function trialProblems(
  api: ApiContext,
  contract: Contract,
  validators: Validators,
  info: RecordFamilyInfo,
  id: string,
  record: Record<string, unknown>,
): Promise<RecordProblem[]> {
  const trial = trialOf(api, { op: 'put', family: info.family, id, record });
  const problems: RecordProblem[] = [];
  // One href is followed once per trial, whichever answers carry it.
  const followed = new Map<string, number>();
  for (const served of servings(contract, validators, info, id, record))
    problems.push(...(await judgeServing(served, trial, validators, contract, followed)));
  return problems;
}
