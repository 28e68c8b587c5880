/**
 * @module journal/verify
 * The journal read with a `match` (the same as faults and stubs use): the requests that match,
 * and a verification of how many did (`times`, `atLeast`, `atMost`). A failed verification
 * explains itself, as WireMock's near misses do: the expected pattern, how many matched, and the
 * closest requests actually received, ranked by how many members of the match they miss, each
 * differing member shown expected against actual.
 */
import {
  matchDifferences,
  matches,
  type MatchDifference,
  type RequestMatch,
} from '../../state/stubs/match.js';
import { windowNote, type JournalWindow } from '../../state/journal/journal.js';
import type { JournalLine } from '../../state/journal/store.js';
import { showControls } from '../../text/markdown.js';
import { journalFactsOf as factsOf } from '../stubs/request-facts.js';

/** How many matching requests a verification expects: exactly, at least or at most. */
export type Expectation = { times: number } | { atLeast: number } | { atMost: number };
export const EXPECTATION_FIELDS = ['times', 'atLeast', 'atMost'] as const;

/** Closest requests a failed verification shows. */
export const NEAR_MISSES_SHOWN = 3;
/** Longest value a message prints (JSON, then cut). */
const MAX_VALUE_CHARS = 200;

export interface NearMiss {
  request: JournalLine;
  differences: MatchDifference[];
}

export interface Verification {
  ok: boolean;
  count: number;
  /** Why it failed (empty when ok): the pattern, the count, the near misses. */
  message: string;
  nearMisses: NearMiss[];
}

/** The journal lines (newest first) that match. */
export const findRequests = (lines: readonly JournalLine[], match: RequestMatch): JournalLine[] =>
  lines.filter((line) => matches(match, factsOf(line)));

/** A value as JSON, cut, every control character (C0, C1) and bidi control shown as its `\u` escape. */
const shown = (value: unknown): string => {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return showControls(text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text);
};

/** A word of the journal's own, escaped all the same (an operation or key name came from a request). */
const word = (text: string): string => showControls(text.slice(0, MAX_VALUE_CHARS));

/**
 * Whether the verdict would stand whatever the dropped requests were: `count` matching requests
 * kept, up to `dropped` more that may have matched. Certain: a count already too high for `times`
 * or `atMost`, already enough for `atLeast`, or too low for either even if every dropped one
 * matched.
 */
function certain(expect: Expectation, count: number, dropped: number): boolean {
  if (dropped === 0) return true;
  if ('times' in expect) return count > expect.times || count + dropped < expect.times;
  if ('atLeast' in expect) return count >= expect.atLeast || count + dropped < expect.atLeast;
  return count > expect.atMost;
}

function expectationHolds(expect: Expectation, count: number): boolean {
  if ('times' in expect) return count === expect.times;
  if ('atLeast' in expect) return count >= expect.atLeast;
  return count <= expect.atMost;
}

function expectationText(expect: Expectation): string {
  if ('times' in expect) return `exactly ${expect.times}`;
  if ('atLeast' in expect) return `at least ${expect.atLeast}`;
  return `at most ${expect.atMost}`;
}

/** Checks how many journal lines match; on failure, a message with the closest requests. */
export function verifyRequests(
  lines: readonly JournalLine[],
  match: RequestMatch,
  expect: Expectation,
  window: JournalWindow = { kept: lines.length, dropped: 0, size: lines.length },
): Verification {
  const count = findRequests(lines, match).length;
  const sure = certain(expect, count, window.dropped);
  if (sure && expectationHolds(expect, count))
    return { ok: true, count, message: '', nearMisses: [] };
  const nearMisses = lines
    .map((request) => ({ request, differences: matchDifferences(match, factsOf(request)) }))
    .filter((miss) => miss.differences.length > 0)
    // Stable: among equally close requests, the newest first.
    .sort((a, b) => a.differences.length - b.differences.length)
    .slice(0, NEAR_MISSES_SHOWN);
  const out = [
    `expected ${expectationText(expect)} request(s) matching ${shown(match)}, received ${count} (of ${lines.length} in the journal)`,
  ];
  const note = windowNote(window);
  if (note)
    out.push(
      sure
        ? `the journal's window: ${note}`
        : `cannot tell: the journal's window has moved on (${note}), and the dropped requests could change this verdict; verify sooner, reset between tests, or give the journal a larger size`,
    );
  if (nearMisses.length > 0) out.push('closest requests received:');
  for (const [i, { request, differences }] of nearMisses.entries()) {
    out.push(
      `  ${i + 1}. ${word(request.method)} ${shown(request.path)} (${word(request.operation ?? 'no operation')}, key ${word(request.key ?? '-')}, ${request.status}, at ${request.at})`,
    );
    for (const d of differences)
      out.push(`       ${word(d.at)}: expected ${shown(d.expected)}, actual ${shown(d.actual)}`);
  }
  return { ok: false, count, message: out.join('\n'), nearMisses };
}

/** The expectation of a verify request, or the problem with it (exactly one field, a whole number). */
export function readExpectation(body: Record<string, unknown>): Expectation | string {
  const given = EXPECTATION_FIELDS.filter((name) => body[name] !== undefined);
  if (given.length === 0) return { atLeast: 1 };
  if (given.length > 1)
    return `give one of ${EXPECTATION_FIELDS.join(', ')}, not ${given.join(' and ')}`;
  const name = given[0];
  const value = body[name];
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 1_000_000)
    return `${name} must be an integer from 0 to 1000000`;
  return { [name]: value } as Expectation;
}
