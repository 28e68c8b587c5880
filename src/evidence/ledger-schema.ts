/**
 * @module evidence/ledger-schema
 * What an earlier night's `evidence.json` must be before the history page uses it: a ledger of
 * this format whose verdicts, kinds and sources are the words this layer writes and whose counts
 * are whole numbers. A file from elsewhere (a crafted one in a `--history` folder) is skipped with
 * the reason, never rendered; the page escapes every string of an accepted one all the same.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { MAX_NAME_LENGTH, SOURCES } from '../contract/index.js';
import { FACT_KINDS, LEDGER_FORMAT, type Ledger } from './ledger.js';

const COUNT = { type: 'integer', minimum: 0 } as const;
const TEXT = { type: 'string' } as const;
const VERDICT = { enum: ['confirmed', 'contradicted', 'unseen'] } as const;

const FACT = {
  type: 'object',
  required: ['id', 'operationId', 'operation', 'kind', 'subject', 'source', 'verdict'],
  properties: {
    id: TEXT,
    operationId: TEXT,
    operation: TEXT,
    kind: { enum: FACT_KINDS },
    status: TEXT,
    subject: TEXT,
    source: { enum: SOURCES },
    at: TEXT,
    markAt: TEXT,
    verdict: VERDICT,
    observations: COUNT,
    seen: TEXT,
    example: TEXT,
    note: TEXT,
    counts: { type: 'object', additionalProperties: { type: 'number' } },
    value: {},
  },
  additionalProperties: false,
} as const;

/** The JSON Schema of `evidence.json` as far as the history page reads it. */
export const LEDGER_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['format', 'label', 'responses', 'summary', 'inferred', 'facts', 'candidates'],
  properties: {
    format: { const: LEDGER_FORMAT },
    label: { type: 'string', maxLength: MAX_NAME_LENGTH },
    responses: COUNT,
    summary: {
      type: 'object',
      required: ['facts', 'confirmed', 'contradicted', 'unseen', 'candidates'],
      properties: {
        facts: COUNT,
        confirmed: COUNT,
        contradicted: COUNT,
        unseen: COUNT,
        candidates: COUNT,
      },
      additionalProperties: false,
    },
    inferred: { type: 'array', items: { type: 'object' } },
    facts: { type: 'array', items: FACT },
    candidates: { type: 'array', items: { type: 'object' } },
    proposal: { type: 'object' },
  },
  additionalProperties: false,
} as const;

const validate = new Ajv2020({ allErrors: false, strict: true }).compile<Ledger>(LEDGER_SCHEMA);

/** The value as a ledger, or the reason it is not one (the first problem, with where it is). */
export function checkLedger(value: unknown): { ledger: Ledger } | { problem: string } {
  if (validate(value)) return { ledger: value };
  const e = validate.errors?.[0];
  return {
    problem: `not a ledger (${LEDGER_FORMAT}): ${e ? `${e.instancePath || '(top)'} ${e.message ?? 'invalid'}` : 'invalid'}`,
  };
}
