/**
 * @module support/collected
 * What a vitest run left behind as one plain value (support/collect.ts gathers it). Apart from
 * collect.ts, so that the report's types, which the package root's runContract names, need no
 * vitest types.
 */
import type { TestRow } from '../../api/types.js';
import type { Profile } from '../../evidence/index.js';
import type { ExerciseNote } from './check.js';
import type { Finding } from './findings.js';

// Public: the report's shape is defined in api/types.ts.
export type { TestRow };

/** Everything the reports are built from. */
export interface CollectedRun {
  tests: TestRow[];
  findings: Finding[];
  notes: ExerciseNote[];
  /** Requests sent, answered or not. */
  requests: number;
  /** What the target was seen to do (profile.json). */
  observed: Profile;
}
