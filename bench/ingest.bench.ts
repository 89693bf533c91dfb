import { performance } from 'node:perf_hooks';
import type { Sql } from '../shared/db/client';
import { applyIngestBatch, type ApplyOptions } from '../shared/ingest/apply';
import type { IncomingMessage } from '../shared/ingest/contract';
import type { BenchContext } from './context';
import type { Comparison, Measured } from './harness';
import { sampleHitBody, sampleHitMessage } from '../development/ingest/sampleHits';

const EVENTS = 10_000;
const BATCH = 500;
const ROUNDS = 8;
const WARMUP = 2;
/** The core keeps at least this share of the bare upsert's throughput. */
const TARGET_THROUGHPUT_RATIO = 0.6;

/**
 * 10,000 hit events in batches of 500 through the apply core (`applyIngestBatch`, status switch
 * on: classification and validation of each body, merge per key, one transaction per batch with
 * the guarded upsert and the status write) against a bare write of the same rows (the keys' advisory
 * locks, then UPDATE ... FROM unnest(...) and INSERT ... WHERE NOT EXISTS) in the same batches, its arrays built before the clock
 * starts. Each round gives each side a club of its own, so both insert 10,000 new rows; the
 * order of the two sides alternates per round.
 */
export default async function ingestBench({ sql }: BenchContext): Promise<Comparison> {
  const subjectBatches: number[] = [];
  const baselineBatches: number[] = [];
  const subjectTotals: number[] = [];
  const baselineTotals: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    const subjectClub = `7${round}1`;
    const baselineClub = `7${round}2`;
    const messages = hitMessages(subjectClub);
    const rows = hitRows(baselineClub);
    const sides: [() => Promise<number[]>, number[], number[]][] = [
      [() => runSubject(sql, messages, round), subjectBatches, subjectTotals],
      [() => runBaseline(sql, rows), baselineBatches, baselineTotals],
    ];
    if (round % 2 === 1) sides.reverse();
    for (const [run, batches, totals] of sides) {
      const times = await run();
      if (round < WARMUP) continue;
      batches.push(...times);
      totals.push(times.reduce((sum, time) => sum + time, 0));
    }
  }
  const baseline = measured('bare unnest upsert, 20 batches of 500', baselineTotals);
  const subject = measured('applyIngestBatch, 20 batches of 500', subjectTotals);
  const throughput = (ms: number) => Math.round((EVENTS / ms) * 1000);
  console.log(
    [
      `  events/s   core ${throughput(subject.medianMs)}, bare ${throughput(baseline.medianMs)}: ratio ${(baseline.medianMs / subject.medianMs).toFixed(2)} (target ≥ ${TARGET_THROUGHPUT_RATIO})`,
      `  batch p95  core ${percentile(subjectBatches, 0.95).toFixed(2)} ms, bare ${percentile(baselineBatches, 0.95).toFixed(2)} ms (batches of ${BATCH}, ${subjectBatches.length} per side)`,
    ].join('\n'),
  );
  return {
    title:
      'Ingest apply core: 10,000 hit events in batches of 500 vs bare unnest upsert of the same rows (time ratio; ≤ 1.67× is ≥ 0.6 of the throughput)',
    baseline,
    subject,
    ratio: subject.medianMs / baseline.medianMs,
    target: Number((1 / TARGET_THROUGHPUT_RATIO).toFixed(2)),
  };
}

/** Every 20 s from 2025-11-20 19:00 UTC, an evening's pace. */
const shotAt = (index: number) => 1_763_665_200_000 + index * 20_000;

function hitBody(club: string, index: number) {
  return sampleHitBody(club, index, shotAt(index));
}

/** As the Node worker hands them over: parsed JSON bodies, origin properties as text. */
function hitMessages(club: string): IncomingMessage[] {
  return Array.from({ length: EVENTS }, (_, index) => sampleHitMessage(club, index, shotAt(index)));
}

function hitRows(club: string) {
  return Array.from({ length: EVENTS }, (_, index) => {
    const { after, source } = hitBody(club, index);
    return {
      club,
      record: String(after.id),
      shooter: String(after.shooter_id),
      discipline: after.discipline,
      series: String(after.series),
      shotNo: String(after.shot_no),
      value: String(after.value),
      shotAt: new Date(after.shot_at / 1000).toISOString(),
      lsn: String(source.lsn),
    };
  });
}

/** The core alone, as measured here; bench/ingestHub.bench.ts reports the trigger path beside it. */
export async function runSubject(sql: Sql, messages: IncomingMessage[], round: number): Promise<number[]> {
  const options: ApplyOptions = {
    runner: { id: `event:bench-${round}`, kind: 'event' },
    statusEnabled: true,
    thresholds: { rejectingThreshold: 2, quarantineThreshold: 5, windowSeconds: 300, driftQuietSeconds: 900 },
    rejectLogMax: 1000,
  };
  const times: number[] = [];
  for (let start = 0; start < messages.length; start += BATCH) {
    const started = performance.now();
    await applyIngestBatch(sql, messages.slice(start, start + BATCH), options);
    times.push(performance.now() - started);
  }
  return times;
}

async function runBaseline(sql: Sql, rows: ReturnType<typeof hitRows>): Promise<number[]> {
  const batches = [];
  for (let start = 0; start < rows.length; start += BATCH) {
    const slice = rows.slice(start, start + BATCH);
    const column = <K extends keyof (typeof slice)[number]>(key: K) => slice.map((row) => row[key]);
    batches.push({
      club: column('club'),
      record: column('record'),
      shooter: column('shooter'),
      discipline: column('discipline'),
      series: column('series'),
      shotNo: column('shotNo'),
      value: column('value'),
      shotAt: column('shotAt'),
      lsn: column('lsn'),
    });
  }
  const times: number[] = [];
  for (const batch of batches) {
    const started = performance.now();
    // club_data_hit is partitioned by arrival month (decision 016): no unique key on (club, record)
    // for ON CONFLICT, so the bare write is the same as ingest's at its barest: the keys' advisory
    // locks, then an update of the keys that have a row and an insert of the others.
    await sql.begin(async (tx) => {
      await tx`
        select pg_advisory_xact_lock(41032001, k)
        from (select distinct hashtext(c || '/' || r) as k from unnest(${tx.array(batch.club)}::text[], ${tx.array(batch.record)}::text[]) as u(c, r) order by 1) as keys`;
      await tx`
        with u as (
          select * from unnest(
            ${tx.array(batch.club)}::text[], ${tx.array(batch.record)}::text[], ${tx.array(batch.shooter)}::text[],
            ${tx.array(batch.discipline)}::text[], ${tx.array(batch.series)}::int4[], ${tx.array(batch.shotNo)}::int4[],
            ${tx.array(batch.value)}::numeric[], ${tx.array(batch.shotAt)}::timestamptz[], ${tx.array(batch.lsn)}::int8[]
          ) as u(club, record, shooter, discipline, series, shot_no, value, shot_at, lsn)
        ), updated as (
          update club_data_hit t set shooter_id = u.shooter, discipline = u.discipline, series = u.series, shot_no = u.shot_no,
            value = u.value, shot_at = u.shot_at, source_lsn = u.lsn, updated_at = now()
          from u where t.source_club_id = u.club and t.source_record_id = u.record and t.source_lsn < u.lsn
        )
        insert into club_data_hit (source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at, source_lsn, updated_at)
        select u.*, now() from u
        where not exists (select 1 from club_data_hit e where e.source_club_id = u.club and e.source_record_id = u.record)`;
    });
    times.push(performance.now() - started);
  }
  return times;
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function measured(name: string, totals: number[]): Measured {
  return { name, medianMs: percentile(totals, 0.5), p90Ms: percentile(totals, 0.9), samples: totals.length };
}
