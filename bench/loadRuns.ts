import autocannon from 'autocannon';
import type { ChildServer } from './childServer';
import type { Measured } from './harness';

/** Seconds of load per run and side (BENCH_REQUEST_SECONDS; 8 for the quoted figures), runs per side (BENCH_REQUEST_ROUNDS). */
export const LOAD_SECONDS = Number(process.env['BENCH_REQUEST_SECONDS'] ?? 3);
export const LOAD_ROUNDS = Number(process.env['BENCH_REQUEST_ROUNDS'] ?? 3);
export const LOAD_CONNECTIONS = 16;

/** One autocannon run against a child server, as seen from outside and by the server's CPU clock. */
export interface LoadRun {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, errors and timeouts. */
  failed: number;
  /** The server's CPU time (user + system) per answered request, in microseconds. */
  cpuMicrosPerRequest: number;
}

/** Loads `url` on `server` with LOAD_CONNECTIONS connections, for a time or a number of requests. */
export async function loadRun(
  server: ChildServer,
  url: string,
  headers: Record<string, string>,
  length: { seconds: number } | { requests: number },
): Promise<LoadRun> {
  const cpuBefore = await server.cpuMicros();
  const result = await autocannon({
    url,
    connections: LOAD_CONNECTIONS,
    headers,
    ...('seconds' in length ? { duration: length.seconds } : { amount: length.requests }),
  });
  const cpuMicros = (await server.cpuMicros()) - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    cpuMicrosPerRequest: cpuMicros / Math.max(result.requests.total, 1),
  };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
export const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

/** The runs' median p50 and p90 latency as a harness figure. */
export function measuredRuns(name: string, runs: LoadRun[]): Measured {
  return { name, medianMs: median(runs.map((run) => run.p50Ms)), p90Ms: median(runs.map((run) => run.p90Ms)), samples: runs.length };
}
