/** The federation run's figures and how they are printed. Pure. */

/** The q-quantile (0..1) of `values` by the nearest-rank method; NaN for none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

/** One sample of the apply lag, taken every few seconds during the run. */
export interface LagSample {
  /** Seconds since the sender started. */
  atSeconds: number;
  /** Events the hub holds (last enqueued sequence number + 1, summed over partitions). */
  sent: number;
  /** Events the ingest function has finished with (highest sequence number applied + 1, summed). */
  applied: number;
  /** The progress drain's queue (challenge_progress_touched); absent where it was not read. */
  drain?: DrainSample;
}

/** The queue of shooters waiting for the progress drain at one sample. */
export interface DrainSample {
  /** Shooters waiting. */
  queued: number;
  /** Seconds the longest waiting shooter has waited (0 for an empty queue). */
  oldestSeconds: number;
  /** Shooters queued since the statistics began (each new entry once; one already waiting adds none). */
  queuedTotal: number;
  /** Shooters the drain has taken off the queue since the statistics began. */
  drainedTotal: number;
}

/**
 * Shooters/s queued and drained over the send window (first and last sample inside it with the
 * queue read): where the drain is the slower, the queue and the board's wait grow.
 */
export function drainRates(
  samples: readonly LagSample[],
  windowSeconds: number,
): { queuedPerSecond: number; drainedPerSecond: number } | null {
  const read = samples.filter((sample) => sample.drain !== undefined && sample.atSeconds <= windowSeconds + 0.5);
  const first = read[0];
  const last = read[read.length - 1];
  if (!first?.drain || !last?.drain || last.atSeconds <= first.atSeconds) return null;
  const seconds = last.atSeconds - first.atSeconds;
  return {
    queuedPerSecond: (last.drain.queuedTotal - first.drain.queuedTotal) / seconds,
    drainedPerSecond: (last.drain.drainedTotal - first.drain.drainedTotal) / seconds,
  };
}

export interface Comparison {
  subjectMs: number;
  baselineMs: number;
}

export interface ScaleFigures {
  command: string;
  date: string;
  machine: string;
  preload: { hits: number; partitions: number; seconds: number | null; rowsPerSecond: number | null; reused: boolean };
  catalogClubs: number;
  members: number;
  rate: number;
  seconds: number;
  partitions: number;
  samples: LagSample[];
  /** Seconds after the send window until every sent event was applied; null if it never caught up. */
  drainedAfterSeconds: number | null;
  latenciesMs: number[];
  probesUnseen: number;
  freshnessMs: number[];
  leaderboard: Comparison;
  inbox: Comparison;
  retention: { partition: string | null; dropMs: number; skipped: boolean; insertWaitMs: number; insertBaselineMs: number };
  bytesPerMillion: { heapMiB: number; indexMiB: number; totalMiB: number; bytesPerHit: number };
  /** The database's busy connections during the live run, by statement kind and wait. */
  activity: { statement: string; wait: string; share: number }[];
}

/** Events per second between two samples. */
const rateBetween = (a: LagSample, b: LagSample, field: 'sent' | 'applied') =>
  b.atSeconds > a.atSeconds ? (b[field] - a[field]) / (b.atSeconds - a.atSeconds) : 0;

/** Applied events/s of each interval between consecutive samples within the send window. */
export function appliedRates(samples: readonly LagSample[], windowSeconds: number): number[] {
  const inWindow = samples.filter((sample) => sample.atSeconds <= windowSeconds + 0.5);
  return inWindow.slice(1).map((sample, index) => rateBetween(inWindow[index] as LagSample, sample, 'applied'));
}

/** Sent and applied events/s over the send window (the last sample inside it). */
export function sustained(samples: readonly LagSample[], windowSeconds: number): { sentPerSecond: number; appliedPerSecond: number } {
  const first = samples[0];
  const inWindow = samples.filter((sample) => sample.atSeconds <= windowSeconds + 0.5);
  const last = inWindow[inWindow.length - 1];
  if (!first || !last || last === first) return { sentPerSecond: 0, appliedPerSecond: 0 };
  return { sentPerSecond: rateBetween(first, last, 'sent'), appliedPerSecond: rateBetween(first, last, 'applied') };
}

const n = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const met = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The report as a markdown block for docs/benchmarks.md. */
export function formatReport(figures: ScaleFigures): string {
  const { sentPerSecond, appliedPerSecond } = sustained(figures.samples, figures.seconds);
  const rates = appliedRates(figures.samples, figures.seconds);
  const p95 = percentile(figures.latenciesMs, 0.95);
  const p99 = percentile(figures.latenciesMs, 0.99);
  const freshness = percentile(figures.freshnessMs, 0.5);
  const leaderboardRatio = figures.leaderboard.subjectMs / figures.leaderboard.baselineMs;
  const inboxRatio = figures.inbox.subjectMs / figures.inbox.baselineMs;
  const maxLag = Math.max(0, ...figures.samples.map((sample) => sample.sent - sample.applied));
  const lagLine = figures.samples.map((sample) => `${n(sample.atSeconds)} s: ${n(sample.sent - sample.applied)}`).join(', ');
  const drain = drainRates(figures.samples, figures.seconds);
  const queueLine = figures.samples
    .filter((sample) => sample.drain !== undefined)
    .map((sample) => `${n(sample.atSeconds)} s: ${n(sample.drain?.queued ?? 0)} (${n(sample.drain?.oldestSeconds ?? 0, 1)} s)`)
    .join(', ');
  const oldest = Math.max(0, ...figures.samples.map((sample) => sample.drain?.oldestSeconds ?? 0));
  const { preload, retention, bytesPerMillion: bytes } = figures;
  const lines = [
    `Command: \`${figures.command}\` — ${figures.date}; ${figures.machine}.`,
    '',
    `Preload: ${n(preload.hits)} hits in ${preload.partitions} monthly partitions` +
      (preload.reused
        ? ' (reused from an earlier run)'
        : `, loaded with COPY in ${n(preload.seconds ?? Number.NaN)} s (${n(preload.rowsPerSecond ?? Number.NaN)} rows/s, indexes included)`) +
      `; ${n(figures.catalogClubs)} catalog clubs, ${n(figures.members)} members. Sender: ${n(figures.rate)} events/s asked for ${figures.seconds} s over ${figures.partitions} partitions.`,
    '',
    '| figure | value | target |',
    '| --- | --- | --- |',
    `| events/s sent (achieved) | ${n(sentPerSecond)} | ${n(figures.rate)} |`,
    `| events/s applied, sustained over the window | ${n(appliedPerSecond)} | ≥ 8,000: ${met(appliedPerSecond >= 8000)} |`,
    `| applied events/s per ${figures.samples.length > 1 ? '5 s' : ''} interval: min / median / max | ${n(Math.min(...rates))} / ${n(percentile(rates, 0.5))} / ${n(Math.max(...rates))} | no dip |`,
    `| apply lag, most events behind | ${n(maxLag)} | — |`,
    `| caught up after the window | ${figures.drainedAfterSeconds === null ? 'not within the drain time' : `${n(figures.drainedAfterSeconds)} s`} | — |`,
    `| send-to-board p95 / p99 (${figures.latenciesMs.length} probes, ${figures.probesUnseen} never seen) | ${n(p95)} / ${n(p99)} ms | p95 ≤ 5,000 ms: ${met(p95 <= 5000 && figures.probesUnseen === 0)} |`,
    ...(drain
      ? [
          `| progress drain: shooters/s queued / drained over the window | ${n(drain.queuedPerSecond)} / ${n(drain.drainedPerSecond)} | drained ≥ queued: ${met(drain.drainedPerSecond >= drain.queuedPerSecond * 0.98)} |`,
          `| progress drain: longest wait of a queued shooter | ${n(oldest, 1)} s | — |`,
        ]
      : []),
    `| freshness check over ${n(figures.catalogClubs)} clubs (median of ${figures.freshnessMs.length}) | ${n(freshness)} ms | ≤ 1,000 ms: ${met(freshness <= 1000)} |`,
    `| leaderboard first page vs bare query | ${leaderboardRatio.toFixed(2)}× (${figures.leaderboard.subjectMs.toFixed(2)} / ${figures.leaderboard.baselineMs.toFixed(2)} ms) | ≤ 1.3×: ${met(leaderboardRatio <= 1.3)} |`,
    `| inbox first page vs bare query | ${inboxRatio.toFixed(2)}× (${figures.inbox.subjectMs.toFixed(2)} / ${figures.inbox.baselineMs.toFixed(2)} ms) | ≤ 1.3×: ${met(inboxRatio <= 1.3)} |`,
    `| retention drop of ${retention.partition ?? 'the oldest partition'} | ${retention.skipped ? 'skipped (lock not had in time)' : `${n(retention.dropMs)} ms`} | ≤ 1,000 ms: ${met(!retention.skipped && retention.dropMs <= 1000)} |`,
    `| an insert during the drop (before: ${retention.insertBaselineMs.toFixed(1)} ms) | ${n(retention.insertWaitMs, 1)} ms | never blocks |`,
    `| database bytes per million hits | ${n(bytes.totalMiB)} MiB (heap ${n(bytes.heapMiB)}, indexes ${n(bytes.indexMiB)}; ${n(bytes.bytesPerHit)} bytes per hit) | — |`,
    '',
    `Apply lag (events behind) every 5 s: ${lagLine}.`,
    ...(queueLine ? ['', `Progress drain queue (shooters waiting, the longest wait) every 5 s: ${queueLine}.`] : []),
    '',
    'Where the database was busy during the live run (share of active-statement samples):',
    '',
    ...figures.activity.map((row) => `- ${(row.share * 100).toFixed(0)} % \`${row.statement}\` (${row.wait})`),
  ];
  return lines.join('\n');
}
