/**
 * @module stubs/answer-judge
 * The one judgement of an answer the double would send because a test asked it to (a stub's
 * patch or whole answer, a record served by an operation): the checks every response gets
 * (`checkResponse`: status declared, headers typed, media type, schema) and the contract suite's
 * own judgements of meaning (`contract/judge`: page arithmetic, identifiers equal to the path's,
 * hrefs that lead to an operation, the headers a hand-made answer may carry, a 429's two waits
 * agreeing). Breaking a documented or reference fact refuses; an inferred one warns. Hrefs are
 * followed in process afterwards (`followRefusals`): a GET on each must answer 200, as the suite
 * follows them on a target.
 */
import {
  checkResponse,
  collectHrefs,
  judgeAnsweredPage,
  judgeHeaderNames,
  judgeHref,
  judgeIdentifiers,
  judgeRetryAfter,
  NO_BODY_STATUSES,
  pageAskedFor,
  type Contract,
  type Judgement,
  type ResolvedHref,
  type Source,
  type Validators,
} from '../../contract/index.js';
import type { ApiContext } from '../context.js';
import type { AnswerRequest, FollowHref } from './sample-answer.js';

/** The content type the mock's JSON answers carry (response.ts), unless a stub says another. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** Distinct hrefs followed for one answer at most; more is refused with the bound named. */
export const MAX_FOLLOWED_HREFS = 1_000;

export interface AnswerUnderJudgement {
  status: number;
  body: unknown;
  /** Every header the answer goes out with (lower-case names); absent: the mock's JSON type alone. */
  headers?: Readonly<Record<string, string>>;
}

/** What the answer is judged against besides the document, each part optional. */
export interface AnswerFacts {
  /** The request answered: its identifiers must be the body's, its page the body's arithmetic. */
  request?: Partial<AnswerRequest>;
  /** Headers a test set by hand (`respond.headers`): only those the document declares may be. */
  handMadeHeaders?: Readonly<Record<string, string>>;
  /** The mock's base URL and the document's operations, to read hrefs against; without them hrefs are not judged. */
  baseUrl?: string;
  operations?: Contract['operations'];
  /** Hrefs the dataset's own answer carries (already known to lead somewhere): not judged again. */
  knownHrefs?: ReadonlySet<string>;
}

/** One breach, structured: where, the line the refusal or warning says, whose rule. */
export interface AnswerProblem {
  pointer: string;
  line: string;
  source: Source;
}

export interface AnswerJudgement {
  refusals: string[];
  warnings: string[];
  /** The same breaches as the two lists, with their pointers. */
  problems: AnswerProblem[];
  /** Hrefs that name an operation, to follow (`followRefusals`). */
  hrefs: ResolvedHref[];
}

const shown = (value: unknown): string => {
  const text =
    typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/** `"/pagination/has_more" has_more disagrees ...: expected ..., got true (documented)`. */
export function judgementLine(j: Judgement): string {
  return `"${j.pointer}" ${j.message}: expected ${j.expected}, got ${shown(j.actual)} (${j.source})`;
}

/** The answer's breaches of the contract: refusals (documented, reference) and warnings (inferred). */
export function judgeAnswer(
  validators: Validators,
  op: Contract['operations'][number],
  answer: AnswerUnderJudgement,
  facts: AnswerFacts = {},
): AnswerJudgement {
  const refusals: string[] = [];
  const warnings: string[] = [];
  const hrefs: ResolvedHref[] = [];
  const problems: AnswerProblem[] = [];
  const declared = validators.responseFor(op, answer.status);
  if (!declared) {
    refusals.push(
      `status ${answer.status} is not declared by ${op.operationId} (declared: ${[...op.responses.keys()].join(', ')})`,
    );
    problems.push({ pointer: 'status', line: refusals[0], source: 'documented' });
    return { refusals, warnings, problems, hrefs };
  }
  const say = (pointer: string, line: string, source: Source) => {
    (source === 'inferred' ? warnings : refusals).push(line);
    problems.push({ pointer, line, source });
  };
  const headers = answer.headers ?? { 'content-type': JSON_TYPE };
  const header = (name: string) => headers[name] ?? null;
  const body = NO_BODY_STATUSES.has(answer.status)
    ? ({ kind: 'none' } as const)
    : ({ kind: 'json', value: answer.body } as const);
  for (const f of checkResponse(validators, op, {
    status: answer.status,
    method: op.method,
    header,
    body,
  })) {
    const said = f.message.startsWith(f.pointer)
      ? f.message.slice(f.pointer.length).trim()
      : f.message;
    say(f.pointer, `"${f.pointer}" ${said} (${f.source})`, f.source);
  }
  const meaning: Judgement[] = [];
  if (facts.handMadeHeaders)
    meaning.push(...judgeHeaderNames(declared, Object.keys(facts.handMadeHeaders)));
  if (answer.status === 429) meaning.push(...judgeRetryAfter(header('retry-after'), answer.body));
  const request = facts.request;
  if (request && answer.status >= 200 && answer.status < 300) {
    meaning.push(
      ...judgeAnsweredPage(op, answer.body, pageAskedFor(op, request.query ?? {}, request.body)),
    );
    meaning.push(...judgeIdentifiers(op, request.params ?? {}, answer.body));
  }
  if (facts.baseUrl && facts.operations && answer.status >= 200 && answer.status < 300)
    for (const found of collectHrefs(answer.body)) {
      if (facts.knownHrefs?.has(found.value)) continue;
      const judged = judgeHref(found, facts.operations, facts.baseUrl);
      if ('judgement' in judged) meaning.push(judged.judgement);
      else hrefs.push(judged);
    }
  for (const j of meaning) say(j.pointer, judgementLine(j), j.source);
  return { refusals, warnings, problems, hrefs };
}

/** The hrefs of a judgement followed in process: a refusal for each that does not answer 200. */
export async function followRefusals(
  follow: FollowHref,
  hrefs: readonly ResolvedHref[],
  api?: ApiContext,
  /** Statuses already seen, by URL (shared by the answers of one record's trial). */
  seen = new Map<string, number>(),
): Promise<AnswerProblem[]> {
  const refusals: AnswerProblem[] = [];
  for (const href of hrefs) {
    let status = seen.get(href.url);
    if (status === undefined) {
      if (seen.size >= MAX_FOLLOWED_HREFS) {
        const line = `"${href.pointer}" more than ${MAX_FOLLOWED_HREFS} distinct hrefs to follow (the bound) (documented)`;
        refusals.push({ pointer: href.pointer, line, source: 'documented' });
        break;
      }
      status = await follow(href.target, href.rawPath, new URL(href.url).search, api);
      seen.set(href.url, status);
    }
    if (status !== 200)
      refusals.push({
        pointer: href.pointer,
        line: `"${href.pointer}" href ${shown(href.value)} does not resolve: GET ${href.target.operationId} answers ${status}, not 200 (documented)`,
        source: 'documented',
      });
  }
  return refusals;
}
