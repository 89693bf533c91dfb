/** Latency and outcome figures of one route over a soak phase. Pure: no I/O. */

export interface RouteFigures {
  route: string;
  count: number;
  /** Answers by status code, e.g. { 200: 812, 503: 3 }; 0 = no answer (connection failed). */
  statuses: Record<number, number>;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** 503 and 429 answers without a Retry-After header (a client could not know when to come back). */
  busyWithoutRetryAfter: number;
}

/** The value below which `fraction` of the sorted samples lie (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export function createRecorder() {
  const routes = new Map<string, { latencies: number[]; statuses: Record<number, number>; busyWithoutRetryAfter: number }>();
  return {
    /** One call: its status (0 when no answer came), latency, and whether it carried Retry-After. */
    record(route: string, status: number, latencyMs: number, retryAfter = false): void {
      const entry = routes.get(route) ?? { latencies: [], statuses: {}, busyWithoutRetryAfter: 0 };
      routes.set(route, entry);
      entry.latencies.push(latencyMs);
      entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
      if ((status === 503 || status === 429) && !retryAfter) entry.busyWithoutRetryAfter += 1;
    },
    figures(): RouteFigures[] {
      return [...routes.entries()].map(([route, { latencies, statuses, busyWithoutRetryAfter }]) => {
        const sorted = [...latencies].sort((a, b) => a - b);
        const round = (value: number) => Math.round(value * 10) / 10;
        return {
          route,
          count: sorted.length,
          statuses: { ...statuses },
          p50Ms: round(percentile(sorted, 0.5)),
          p95Ms: round(percentile(sorted, 0.95)),
          p99Ms: round(percentile(sorted, 0.99)),
          maxMs: round(sorted[sorted.length - 1] ?? 0),
          busyWithoutRetryAfter,
        };
      });
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;

/** The figures as a fixed-width table, one line per route. */
export function formatFigures(figures: readonly RouteFigures[]): string {
  const head = ['route', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'statuses'];
  const rows = figures.map((figure) => [
    figure.route,
    String(figure.count),
    figure.p50Ms.toFixed(1),
    figure.p95Ms.toFixed(1),
    figure.p99Ms.toFixed(1),
    figure.maxMs.toFixed(1),
    Object.entries(figure.statuses)
      .map(([status, count]) => `${status}x${count}`)
      .join(' '),
  ]);
  const widths = head.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  return [head, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n');
}
