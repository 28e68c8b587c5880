/**
 * @module contract/judge/finding
 * What a judgement says about an answer: which rule, where (a JSON pointer into the body, or
 * `header:<name>`), what the rule expects, what was there, and whose rule it is. The contract
 * suite turns one into a finding on an exchange; the mock turns one into a refusal of a stub or a
 * record (or a skipped stub when it is served). The same functions decide both.
 */
import type { Source } from '../model.js';

export interface Judgement {
  rule: string;
  /** JSON pointer into the body, `header:<name>`, or `status`. */
  pointer: string;
  expected: string;
  /** The value found, unformatted. */
  actual: unknown;
  message: string;
  source: Source;
}
