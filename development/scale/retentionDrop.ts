import { performance } from 'node:perf_hooks';
import type { Sql } from '../../shared/db/client';
import { maintainHitPartitions } from '../../shared/ingest/hitPartitions';
import { PRELOAD_MONTHS } from './hitRows';

/**
 * The retention drop of the oldest month while ingest runs: the hourly maintenance's own code
 * (maintainHitPartitions) with a retention that leaves every month but the oldest, timed; beside
 * it, on another connection, one insert through club_data_hit after another, so that a drop that
 * made writers wait shows as the slowest of those inserts (against the same inserts before it).
 */
const LOCK_TIMEOUT_MS = 1000;
const PROBE_CLUB = 'scale-retention-probe';

export interface RetentionFigure {
  partition: string | null;
  dropMs: number;
  skipped: boolean;
  insertWaitMs: number;
  insertBaselineMs: number;
}

export async function measureRetentionDrop(sql: Sql, probeSql: Sql): Promise<RetentionFigure> {
  let record = Date.now() * 10;
  const insert = async () => {
    const started = performance.now();
    record += 1;
    await probeSql`insert into club_data_hit (source_club_id, source_record_id, shooter_id, value) values (${PROBE_CLUB}, ${String(record)}, '1', 9.9)`;
    return performance.now() - started;
  };
  const before: number[] = [];
  for (let i = 0; i < 20; i += 1) before.push(await insert());
  let dropping = true;
  const during: number[] = [];
  const inserting = (async () => {
    while (dropping) during.push(await insert());
  })();
  const started = performance.now();
  // A month is past a retention of PRELOAD_MONTHS - 2 months once it ended that long ago: only the oldest of the preload.
  const outcome = await maintainHitPartitions(sql, new Date(), {
    monthsAhead: 3,
    retentionMonths: PRELOAD_MONTHS - 2,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
  }).finally(() => (dropping = false));
  const dropMs = performance.now() - started;
  await inserting;
  await probeSql`delete from club_data_hit where source_club_id = ${PROBE_CLUB}`;
  before.sort((a, b) => a - b);
  return {
    partition: outcome.dropped[0] ?? outcome.skipped[0] ?? null,
    dropMs,
    skipped: outcome.dropped.length === 0,
    insertWaitMs: Math.max(0, ...during),
    insertBaselineMs: before[Math.floor(before.length / 2)] ?? 0,
  };
}
