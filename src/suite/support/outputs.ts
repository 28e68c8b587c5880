/**
 * @module support/outputs
 * Where the reports go: files written whole (a temporary file renamed over the target, so a symlink
 * at the target is replaced, never written through), the summary also appended to
 * `$GITHUB_STEP_SUMMARY` when set.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ContractOptions } from './options.js';

/** Writes `text` to `path` whole, creating its folder. */
export function writeReportFile(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  // A leftover of a run that died is removed (a link itself, never its target); `wx` creates anew.
  rmSync(temporary, { force: true });
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, path);
}

/** The Markdown summary: its file, and GitHub's step summary when the run has one. */
export function writeSummary(
  options: Pick<ContractOptions, 'summaryFile' | 'githubStepSummary'>,
  summary: string,
): void {
  writeReportFile(options.summaryFile, summary);
  if (options.githubStepSummary) appendFileSync(options.githubStepSummary, `${summary}\n`);
}
