/**
 * @module testing/longest-first
 * The order of vitest.config.ts's files: group by group (`sequence.groupOrder`), failed first, then
 * the longest by the last run first (unknown ones first of all), whatever their project. vitest's
 * own order runs one project's files after another's, so the package project's install, the
 * slowest file, started last and ran alone while the other worker had nothing left to do.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const { cache, config } = this.ctx;
    const last = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${relative(config.root, spec.moduleId)}`);
    const keyed = sorted.map((spec, at) => {
      const result = last(spec);
      return {
        spec,
        at,
        group: spec.project.config.sequence.groupOrder,
        failed: result?.failed ? 0 : 1,
        duration: result ? result.duration : Infinity,
      };
    });
    keyed.sort(
      (a, b) =>
        a.group - b.group ||
        a.failed - b.failed ||
        (b.duration === a.duration ? 0 : b.duration > a.duration ? 1 : -1) ||
        a.at - b.at,
    );
    return keyed.map((k) => k.spec);
  }
}
