import type { Queryable } from '../../shared/db/client';
import type { DrainSample } from './figures';

/**
 * The progress drain's queue as the run sees it: its length, its longest wait, and the table's
 * cumulative insert and delete counts from the statistics (an entry the apply adds, one the drain
 * claims), from which the run takes both rates.
 */
export async function drainQueue(sql: Queryable): Promise<DrainSample> {
  const [row] = await sql<DrainSample[]>`
    select
      (select count(*) from challenge_progress_touched)::int as queued,
      coalesce(extract(epoch from now() - (select min(touched_at) from challenge_progress_touched)), 0)::float8 as "oldestSeconds",
      coalesce((select n_tup_ins from pg_stat_user_tables where relid = 'challenge_progress_touched'::regclass), 0)::float8 as "queuedTotal",
      coalesce((select n_tup_del from pg_stat_user_tables where relid = 'challenge_progress_touched'::regclass), 0)::float8 as "drainedTotal"`;
  return row ?? { queued: 0, oldestSeconds: 0, queuedTotal: 0, drainedTotal: 0 };
}
