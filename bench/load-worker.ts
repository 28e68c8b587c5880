/**
 * @module bench/load-worker
 * The load generator, in a process of its own so it never shares a CPU queue or a heap with the
 * server it measures. Reads one `LoadSpec` (JSON in argv[2]), runs an unmeasured warm-up and then
 * the measured run with autocannon's API, and prints JSON lines: `{"phase":"warmed"}` when the
 * measured part starts, then `{"phase":"done","result":...}`.
 */
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load.js';

/** Keys nobody issued: half look like real keys, half are junk of varying length. All distinct. */
function distinctKeyMaker(): () => string {
  let n = 0;
  return () => {
    n += 1;
    const hex = n.toString(16).padStart(32, '0');
    return n % 2 === 0 ? `wd_live_${hex}` : `junk-${n}-${'x'.repeat(n % 97)}`;
  };
}

function options(spec: LoadSpec, durationSeconds: number, amount?: number): autocannon.Options {
  const base: autocannon.Options = {
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    ...(amount ? { amount } : { duration: durationSeconds }),
  };
  if (!spec.distinctKeys) return base;
  const nextKey = distinctKeyMaker();
  return {
    ...base,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-api-key': nextKey() },
        }),
      },
    ],
  };
}

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function emit(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
if (spec.warmupSeconds > 0) await run(options(spec, spec.warmupSeconds));
emit({ phase: 'warmed' });
const result = await run(options(spec, spec.durationSeconds, spec.amount));
const summary: LoadResult = {
  requestsPerSecond: result.requests.mean,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  latencyMean: result.latency.average,
  latencyMax: result.latency.max,
  requests: result.requests.total,
  non2xx: result.non2xx,
  statusCodes: result.statusCodeStats,
  errors: result.errors,
  timeouts: result.timeouts,
  durationSeconds: result.duration,
  bytesPerSecond: result.throughput.mean,
};
emit({ phase: 'done', result: summary });
