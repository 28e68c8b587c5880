/**
 * @module bench/report.test
 * The bench's verdicts: targets read the right numbers (ratio to the same run's baseline, p99,
 * CPU per request for "same cost"), and the Markdown never carries a key.
 */
import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load.js';
import { checkTargets, toMarkdown, type BenchReport, type Row, type Side } from './report.js';

const MIB = 1024 * 1024;

function side(requestsPerSecond: number, cpuMicrosPerRequest: number, latencyP99 = 5): Side {
  const load: LoadResult = { requestsPerSecond, latencyP50: 2, latencyP99, latencyMean: 2, latencyMax: 20, requests: requestsPerSecond * 8, non2xx: 0, statusCodes: { 200: { count: requestsPerSecond * 8 } }, errors: 0, timeouts: 0, durationSeconds: 8, bytesPerSecond: 1 };
  return { ...load, peakRssBytes: 100 * MIB, cpuMicrosPerRequest };
}

function row(scenario: string, scale: number, mock: Side, baseline: Side): Row {
  return { scenario, title: scenario, scale, responseBytes: 1000, mock, baseline };
}

function report(rows: Row[]): BenchReport {
  return {
    date: '2026-11-23T00:00:00.000Z',
    machine: { cpu: 'test cpu', cores: 2, memoryGiB: 8, os: 'linux', node: 'v20' },
    settings: { connections: 50, durationSeconds: 8, warmupSeconds: 2, key: '$API_KEY' },
    rows,
    startup: [{ scale: 1000, firstAnswerMs: 16_000, bannerReadyMs: 15_000, peakRssBytes: 1000 * MIB, shutdownMs: 50, exitCode: 0 }],
  };
}

const verdict = (r: BenchReport, prefix: string) => checkTargets(r).find((c) => c.target.startsWith(prefix));

describe('bench targets', () => {
  it('judges the list page by its ratio to the same run baseline, and p99', () => {
    const met = report([row('products-list', 1, side(7_100, 50), side(10_000, 20))]);
    expect(verdict(met, 'list page >=')).toMatchObject({ ok: true, measured: '71.0%' });
    const missed = report([row('products-list', 1, side(6_900, 50, 12), side(10_000, 20))]);
    expect(verdict(missed, 'list page >=')).toMatchObject({ ok: false, measured: '69.0%' });
    expect(verdict(missed, 'list page p99')).toMatchObject({ ok: false });
  });

  it('judges "same cost" by CPU per request against the first page at scale 1', () => {
    const rows = [row('products-list', 1, side(7_000, 50), side(10_000, 20)), row('products-last-page', 1, side(3_000, 54), side(10_000, 20)), row('products-list', 100, side(7_000, 60), side(10_000, 20))];
    const checks = checkTargets(report(rows));
    expect(checks.find((c) => c.target.includes('products-last-page at scale 1'))).toMatchObject({ ok: true });
    expect(checks.find((c) => c.target.includes('products-list at scale 100'))).toMatchObject({ ok: false });
  });

  it('applies the scale-1000 limits to startup time and RSS', () => {
    const checks = checkTargets(report([]));
    expect(checks.find((c) => c.target.startsWith('startup at scale 1000'))).toMatchObject({ ok: false, measured: '16000 ms' });
    expect(checks.find((c) => c.target.startsWith('peak RSS at scale 1000'))).toMatchObject({ ok: true });
  });

  it('renders a table with date, machine and every row, without a key', () => {
    const markdown = toMarkdown(report([row('products-list', 1, side(7_000, 50), side(10_000, 20))]));
    expect(markdown).toContain('2026-11-23');
    expect(markdown).toContain('test cpu, 2 cores');
    expect(markdown).toMatch(/\| products-list \| 1 \| 1000 \| 7000 \| 10000 \| \*\*0\.70\*\* \|/);
    expect(markdown).not.toMatch(/demo-[a-z-]+-key/);
  });
});
