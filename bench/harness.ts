import { performance } from 'node:perf_hooks';

/**
 * Benchmarks report a ratio against a baseline measured in the same run, alternating the two so
 * that machine noise hits both alike.
 */
export interface Measured {
  name: string;
  medianMs: number;
  p90Ms: number;
  samples: number;
}

export interface Comparison {
  title: string;
  baseline: Measured;
  subject: Measured;
  /** subject median / baseline median */
  ratio: number;
  target?: number;
  /** Why the figure does not count whatever its ratio (a check beside the timing failed). */
  failed?: string;
  /** Further lines printed under the figure (e.g. each run of a load test). */
  detail?: string[];
}

export interface CompareOptions {
  title: string;
  baseline: { name: string; run(): Promise<unknown> };
  subject: { name: string; run(): Promise<unknown> };
  iterations?: number;
  warmup?: number;
  /** Upper bound on the ratio the issue asks for, printed next to the result. */
  target?: number;
}

export async function compare(options: CompareOptions): Promise<Comparison> {
  const iterations = options.iterations ?? 20;
  const warmup = options.warmup ?? 3;
  for (let i = 0; i < warmup; i += 1) {
    await options.baseline.run();
    await options.subject.run();
  }
  const baselineTimes: number[] = [];
  const subjectTimes: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    // Alternate the order so neither side always runs on a warmer cache.
    const order: [CompareOptions['baseline'], number[]][] =
      i % 2 === 0
        ? [
            [options.baseline, baselineTimes],
            [options.subject, subjectTimes],
          ]
        : [
            [options.subject, subjectTimes],
            [options.baseline, baselineTimes],
          ];
    for (const [side, times] of order) {
      const started = performance.now();
      await side.run();
      times.push(performance.now() - started);
    }
  }
  const baseline = summarise(options.baseline.name, baselineTimes);
  const subject = summarise(options.subject.name, subjectTimes);
  return { title: options.title, baseline, subject, ratio: subject.medianMs / baseline.medianMs, target: options.target };
}

function summarise(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), samples: sorted.length };
}

export function formatComparison(result: Comparison): string {
  const target = result.target ? ` (target ≤ ${result.target}×: ${result.ratio <= result.target ? 'met' : 'MISSED'})` : '';
  return [
    `## ${result.title}`,
    `  baseline  ${result.baseline.name}: median ${result.baseline.medianMs.toFixed(2)} ms, p90 ${result.baseline.p90Ms.toFixed(2)} ms (${result.baseline.samples} runs)`,
    `  subject   ${result.subject.name}: median ${result.subject.medianMs.toFixed(2)} ms, p90 ${result.subject.p90Ms.toFixed(2)} ms (${result.subject.samples} runs)`,
    `  ratio     ${result.ratio.toFixed(2)}×${target}`,
    ...(result.failed ? [`  FAILED    ${result.failed}`] : []),
    ...(result.detail ?? []).map((line) => `  ${line}`),
  ].join('\n');
}
