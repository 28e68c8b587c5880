/**
 * @module support/sequencer
 * The order of the suite's files: vitest's own, with the drift file last, since it compares
 * everything the run observed with the baseline's profile.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LAST = /[\\/]drift\.contract\.test\.[jt]s$/;

export default class DriftLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [
      ...sorted.filter((f) => !LAST.test(f.moduleId)),
      ...sorted.filter((f) => LAST.test(f.moduleId)),
    ];
  }
}
