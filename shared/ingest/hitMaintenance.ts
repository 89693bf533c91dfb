import type { Settings } from '../config/settings';
import type { Sql } from '../db/client';
import type { Logger } from '../log/logger';
import { moveHitsOnline } from './hitPartitionMove';
import { maintainHitPartitions } from './hitPartitions';

/** Rows one copy statement of the online move takes: a short transaction each. */
const MOVE_BATCH_ROWS = 10_000;

type HitSettings = Pick<
  Settings,
  'HIT_RETENTION_MONTHS' | 'HIT_PARTITIONS_AHEAD_MONTHS' | 'HIT_PARTITION_LOCK_TIMEOUT_MS' | 'HIT_MOVE_BUDGET_SECONDS'
>;

/**
 * The hourly care of club_data_hit (run by the freshnessCheck timer after its check): go on with
 * an unfinished move into the partitioned table, make the months ahead, drop the months past
 * retention. Every lock it takes is bounded by HIT_PARTITION_LOCK_TIMEOUT_MS; what it could not
 * lock is logged and done by a later run.
 */
export async function runHitMaintenance(sql: Sql, now: Date, settings: HitSettings, log: Logger): Promise<Record<string, number | string>> {
  const move = await moveHitsOnline(sql, {
    batchSize: MOVE_BATCH_ROWS,
    budgetMs: settings.HIT_MOVE_BUDGET_SECONDS * 1000,
    lockTimeoutMs: settings.HIT_PARTITION_LOCK_TIMEOUT_MS,
  });
  if (move.state !== 'none') log.info('hit_partition_move', { ...move });
  const partitions = await maintainHitPartitions(sql, now, {
    monthsAhead: settings.HIT_PARTITIONS_AHEAD_MONTHS,
    retentionMonths: settings.HIT_RETENTION_MONTHS,
    lockTimeoutMs: settings.HIT_PARTITION_LOCK_TIMEOUT_MS,
  });
  for (const name of partitions.created) log.info('hit_partition_created', { partition: name });
  for (const name of partitions.dropped) log.info('hit_partition_dropped', { partition: name });
  for (const name of partitions.skipped) log.warn('hit_partition_lock_busy', { partition: name });
  return {
    hitMove: move.state,
    hitPartitionsCreated: partitions.created.length,
    hitPartitionsDropped: partitions.dropped.length,
    hitPartitionsSkipped: partitions.skipped.length,
  };
}
