import type { Queryable, Sql, TransactionSql } from '../db/client';
import { isLockTimeout } from '../db/errors';

/**
 * The monthly partitions of club_data_hit (docs/decisions/016-hit-partitions.md): made ahead of
 * time, and dropped whole once every hit in them is older than the retention. Each change runs
 * in its own short transaction under lock_timeout: a partition change that cannot have its lock
 * at once gives up until the next run, so ingest never waits behind it for longer.
 */
export interface HitPartitionPolicy {
  /** Months made ahead of the current (UTC) one. */
  monthsAhead: number;
  /** Whole months kept: a month is dropped once its last instant is that many months ago. */
  retentionMonths: number;
  lockTimeoutMs: number;
}

export interface PartitionMaintenance {
  /** Partitions made (club_data_hit_pYYYY_MM). */
  created: string[];
  dropped: string[];
  /** Changes that did not get their lock in time; the next run tries again. */
  skipped: string[];
}

const PARTITION_NAME = /^club_data_hit_p(\d{4})_(\d{2})$/;

/** The first instant (UTC) of the month `offset` months after the month of `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

const isoDay = (day: Date) => day.toISOString().slice(0, 10);
const partitionName = (month: Date) => `club_data_hit_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** The month a partition holds, read from its name; null for a table of another name. */
export function monthOfPartition(name: string): Date | null {
  const match = PARTITION_NAME.exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

/** Whether a month's partition is past retention: its end lies `retentionMonths` or more months before `now`. */
export function isPastRetention(month: Date, now: Date, retentionMonths: number): boolean {
  return monthStart(month, 1 + retentionMonths).getTime() <= now.getTime();
}

export async function maintainHitPartitions(sql: Sql, now: Date, policy: HitPartitionPolicy): Promise<PartitionMaintenance> {
  const outcome: PartitionMaintenance = { created: [], dropped: [], skipped: [] };
  for (const month of await monthsWanted(sql, now, policy)) {
    const made = await addMonthPartition(sql, month, policy.lockTimeoutMs);
    if (made === 'created') outcome.created.push(partitionName(month));
    if (made === 'skipped') outcome.skipped.push(partitionName(month));
  }
  for (const name of await partitionsPastRetention(sql, now, policy.retentionMonths)) {
    const dropped = await underLockTimeout(sql, policy.lockTimeoutMs, outcome, name, async (tx) => {
      // DETACH ... CONCURRENTLY is refused while a default partition exists; the plain form is a
      // catalog change of a moment, bounded by lock_timeout like the rest.
      await tx.unsafe(`alter table ${await parentName(tx)} detach partition ${name}`);
      await tx.unsafe(`drop table ${name}`);
      return true;
    });
    if (dropped) outcome.dropped.push(name);
  }
  return outcome;
}

/** The current month and those ahead, and any month within retention the default partition holds rows of. */
async function monthsWanted(sql: Sql, now: Date, policy: HitPartitionPolicy): Promise<Date[]> {
  const ahead = Array.from({ length: policy.monthsAhead + 1 }, (_, offset) => monthStart(now, offset));
  const held = await sql<{ month: Date }[]>`
    select distinct date_trunc('month', created_at at time zone 'UTC') at time zone 'UTC' as month
    from club_data_hit_default where created_at >= ${monthStart(now, -policy.retentionMonths)}`;
  const months = new Map<number, Date>();
  for (const month of [...held.map((row) => row.month), ...ahead]) {
    if (!isPastRetention(month, now, policy.retentionMonths)) months.set(month.getTime(), month);
  }
  return [...months.values()].sort((a, b) => a.getTime() - b.getTime());
}

/** Makes one month's partition (moving its rows out of the default partition) unless it exists. */
export async function addMonthPartition(sql: Sql, month: Date, lockTimeoutMs: number): Promise<'created' | 'exists' | 'skipped'> {
  const outcome: PartitionMaintenance = { created: [], dropped: [], skipped: [] };
  const made = await underLockTimeout(sql, lockTimeoutMs, outcome, partitionName(month), async (tx) => {
    const [row]: [{ made: boolean }?] = await tx`select club_data_hit_add_month(${isoDay(month)}::date) as made`;
    return row?.made ?? false;
  });
  return made ? 'created' : outcome.skipped.length ? 'skipped' : 'exists';
}

async function partitionsPastRetention(sql: Sql, now: Date, retentionMonths: number): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = club_data_hit_partitioned() order by c.relname`;
  return rows
    .map((row) => row.name)
    .filter((name) => {
      const month = monthOfPartition(name);
      return month !== null && isPastRetention(month, now, retentionMonths);
    });
}

async function parentName(sql: Queryable): Promise<string> {
  const [row]: [{ name: string }?] = await sql`select club_data_hit_partitioned()::text as name`;
  if (!row?.name) throw new Error('club_data_hit is not partitioned: migration 031 has not run');
  return row.name;
}

/** Runs one change in its own transaction with lock_timeout; a lock not had in time is recorded as skipped. */
async function underLockTimeout(
  sql: Sql,
  lockTimeoutMs: number,
  outcome: PartitionMaintenance,
  name: string,
  change: (tx: TransactionSql) => Promise<boolean>,
): Promise<boolean> {
  try {
    return await sql.begin(async (tx) => {
      await tx`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`;
      return change(tx);
    });
  } catch (error) {
    if (!isLockTimeout(error)) throw error;
    outcome.skipped.push(name);
    return false;
  }
}
