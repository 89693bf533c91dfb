import type { Sql } from '../db/client';
import { isLockTimeout } from '../db/errors';
import { addMonthPartition } from './hitPartitions';

/**
 * The online move of a large unpartitioned club_data_hit into the partitioned table migration 031
 * made beside it (club_data_hit_by_month). Small tables moved inside the migration; this is for
 * the rest. While it runs, a trigger on the old table (live/club_data_hit_move_mirror.sql) repeats
 * every write in the new one. The copy walks the old table in id order, a batch per short
 * transaction that records how far it came, so a run can stop anywhere and the next goes on; it
 * skips rows the trigger wrote already (those are newer). When nothing is left, the swap takes
 * the old table's lock (bounded by lock_timeout: if ingest holds it, the swap waits for the next
 * run), copies what is left under it, drops the old table and gives the new one its name.
 */
export type MoveState = 'none' | 'waiting_for_mirror' | 'copying' | 'swapped';

export interface MoveOptions {
  batchSize: number;
  /** Milliseconds this call copies at most before it stops (the next call goes on). */
  budgetMs: number;
  lockTimeoutMs: number;
  /** Called between batches (tests write beside the copy here). */
  afterBatch?: (copiedThroughId: number) => Promise<void>;
}

export interface MoveOutcome {
  state: MoveState;
  /** Rows of the old table the copy went through (rows the mirror wrote already among them). */
  copied: number;
}

const COLUMNS = `id, source_club_id, created_at, source_record_id, shooter_id, discipline, series, shot_no,
  value, shot_at, deleted_at, source_lsn, updated_at, source_sequence, data_lsn, data_sequence`;

export async function moveHitsOnline(sql: Sql, options: MoveOptions): Promise<MoveOutcome> {
  const [status]: [{ pending: boolean; mirrored: boolean }?] = await sql`
    select to_regclass('club_data_hit_by_month') is not null as pending,
           exists (select 1 from pg_trigger where tgname = 'club_data_hit_move_mirror' and tgrelid = to_regclass('club_data_hit')) as mirrored`;
  if (!status?.pending) return { state: 'none', copied: 0 };
  // Without the mirror a row changed behind the copy would be lost: the live files make it.
  if (!status.mirrored) return { state: 'waiting_for_mirror', copied: 0 };

  const started = Date.now();
  const knownMonths = new Set<number>();
  let copied = 0;
  for (;;) {
    if (Date.now() - started >= options.budgetMs) return { state: 'copying', copied };
    await partitionMonthsOfNextBatch(sql, options.batchSize, knownMonths, options.lockTimeoutMs);
    const [batch]: [{ rows: number; through: number | null }?] = await sql`
      with batch as (
        select ${sql.unsafe(COLUMNS)} from club_data_hit
        where id > (select copied_through_id from club_data_hit_move) order by id limit ${options.batchSize}
      ), copied as (
        insert into club_data_hit_by_month (${sql.unsafe(COLUMNS)}) select ${sql.unsafe(COLUMNS)} from batch
        on conflict (source_club_id, id, created_at) do nothing
      ), progress as (
        update club_data_hit_move set copied_through_id = (select max(id) from batch) where exists (select 1 from batch)
      )
      select (select count(*) from batch)::int as rows, (select max(id) from batch)::float8 as through`;
    const rows = batch?.rows ?? 0;
    copied += rows;
    if (rows === 0) break;
    await options.afterBatch?.(batch?.through ?? 0);
  }
  return (await swap(sql, options.lockTimeoutMs)) ? { state: 'swapped', copied } : { state: 'copying', copied };
}

/**
 * Before a batch is copied: a partition for each month its rows arrived in, so the copy lands in
 * months and not in the default partition. A month that cannot be made now (its lock) is made
 * later by the maintenance, which moves its rows out of the default.
 */
async function partitionMonthsOfNextBatch(sql: Sql, batchSize: number, known: Set<number>, lockTimeoutMs: number): Promise<void> {
  const months = await sql<{ month: Date }[]>`
    select distinct date_trunc('month', created_at at time zone 'UTC') at time zone 'UTC' as month
    from (select created_at from club_data_hit where id > (select copied_through_id from club_data_hit_move) order by id limit ${batchSize}) as batch`;
  for (const { month } of months) {
    if (known.has(month.getTime())) continue;
    if ((await addMonthPartition(sql, month, lockTimeoutMs)) !== 'skipped') known.add(month.getTime());
  }
}

/** The short swap; false when the old table's lock could not be had within lock_timeout. */
async function swap(sql: Sql, lockTimeoutMs: number): Promise<boolean> {
  try {
    await sql.begin(async (tx) => {
      await tx`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`;
      await tx`lock table club_data_hit in access exclusive mode`;
      await tx`
        insert into club_data_hit_by_month (${tx.unsafe(COLUMNS)})
        select ${tx.unsafe(COLUMNS)} from club_data_hit where id > (select copied_through_id from club_data_hit_move)
        on conflict (source_club_id, id, created_at) do nothing`;
      await tx`alter sequence club_data_hit_id_seq owned by club_data_hit_by_month.id`;
      await tx`drop table club_data_hit`;
      await tx`alter table club_data_hit_by_month rename to club_data_hit`;
      await tx`update club_data_hit_move set finished_at = now(), copied_through_id = coalesce((select max(id) from club_data_hit), 0)`;
    });
    return true;
  } catch (error) {
    if (isLockTimeout(error)) return false;
    throw error;
  }
}
