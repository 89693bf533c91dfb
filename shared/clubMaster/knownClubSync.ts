import type { Sql, TransactionSql } from '../db/client';
import type { ReportedClub, SyncResult } from './schemas';
import { tallySync, type PreviousState } from './syncRules';

/**
 * Class id of the per-box advisory locks (two-int form), so they can never meet the migration
 * runner's single-bigint lock or another area's locks. Object id: hashtext(reportedByClubId); two
 * boxes whose ids hash alike merely wait for each other.
 */
export const KNOWN_CLUB_LOCK_CLASS = 0x434d_5359;

/** How long a report waits for the box's lock before giving up (lock_not_available, 55P03). */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

export interface SyncOptions {
  /** lock_timeout of the transaction; default DEFAULT_LOCK_TIMEOUT_MS (tests shorten it). */
  lockTimeoutMs?: number;
  /** Runs inside the transaction between the two writes (failure injection in tests). */
  betweenWrites?: (tx: TransactionSql) => Promise<void>;
}

/**
 * Replaces what box `reportedByClubId` is known to report with `clubs`, the complete list: in
 * one transaction, serialised per box by a transaction-scoped advisory lock. Reported clubs are
 * (re)activated with lastSeenAt refreshed, missing ones are marked sourceDeleted. Callers have
 * validated the list (club numbers unique, lengths and characters checked).
 */
export async function syncKnownClubs(
  sql: Sql,
  reportedByClubId: string,
  clubs: readonly ReportedClub[],
  options: SyncOptions = {},
): Promise<SyncResult> {
  const vereinsIds = clubs.map((club) => club.vereinsId);
  const names = clubs.map((club) => club.name);
  const lockTimeout = `${options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS}ms`;
  return sql.begin(async (tx) => {
    // Reports of one box queue on the advisory lock, each holding a pool connection while it
    // waits; lock_timeout (which covers advisory locks too) bounds that wait. set_config(..., true)
    // is `set local` with a bound parameter.
    await tx`select set_config('lock_timeout', ${lockTimeout}, true)`;
    await tx`select pg_advisory_xact_lock(${KNOWN_CLUB_LOCK_CLASS}, hashtext(${reportedByClubId}))`;
    const reportedByPrevious = await upsertReported(tx, reportedByClubId, vereinsIds, names);
    await options.betweenWrites?.(tx);
    const markedDeleted = await markMissingDeleted(tx, reportedByClubId, vereinsIds);
    const result = tallySync(reportedByPrevious, markedDeleted);
    await recordReport(tx, reportedByClubId, result);
    return result;
  });
}

/** True for PostgreSQL's lock_not_available (55P03): a lock wait ran into lock_timeout. */
export function isLockTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'PostgresError' &&
    (error as { code?: unknown }).code === '55P03'
  );
}

/** Inserts or reactivates every reported club; counts them by the state they were in before. */
async function upsertReported(
  tx: TransactionSql,
  reportedByClubId: string,
  vereinsIds: string[],
  names: string[],
): Promise<Partial<Record<PreviousState, number>>> {
  // statement_timestamp() rather than now(): the statement starts after the lock was granted, so
  // lastSeenAt never goes backwards when reports of one box queue behind each other.
  // xmax = 0 marks a freshly inserted row. The final select reads the table with the statement's
  // snapshot, i.e. as it was before the upsert, to tell restored rows from refreshed ones; the
  // IN (subquery) becomes a hashed subplan, so the cost stays linear whatever the plan estimates.
  const [row] = await tx<{ reported: number; added: number; restored: number }[]>`
    with upserted as (
      insert into "ClubDataKnownClub" as k
        ("reportedByClubId", "vereinsId", "name", "firstSeenAt", "lastSeenAt", "sourceDeleted", "sourceDeletedAt")
      select ${reportedByClubId}, r."vereinsId", r."name", statement_timestamp(), statement_timestamp(), false, null
      from unnest(${vereinsIds}::text[], ${names}::text[]) as r("vereinsId", "name")
      on conflict ("reportedByClubId", "vereinsId") do update set
        "name" = excluded."name",
        "lastSeenAt" = excluded."lastSeenAt",
        "sourceDeleted" = false,
        "sourceDeletedAt" = null
      returning k."vereinsId", (k.xmax = 0) as inserted
    )
    select count(*)::int as reported,
           count(*) filter (where inserted)::int as added,
           count(*) filter (where not inserted and "vereinsId" in (
             select d."vereinsId" from "ClubDataKnownClub" d
             where d."reportedByClubId" = ${reportedByClubId} and d."sourceDeleted"))::int as restored
    from upserted`;
  const { reported, added, restored } = row!;
  return { absent: added, deleted: restored, active: reported - added - restored };
}

/** Marks the box's active rows that the report does not contain as sourceDeleted. */
async function markMissingDeleted(tx: TransactionSql, reportedByClubId: string, vereinsIds: string[]): Promise<number> {
  // NOT IN (subquery) is a hashed subplan: linear even when a generic plan guesses the array is small.
  const [row] = await tx<{ count: number }[]>`
    with marked as (
      update "ClubDataKnownClub" k set "sourceDeleted" = true, "sourceDeletedAt" = statement_timestamp()
      where k."reportedByClubId" = ${reportedByClubId}
        and not k."sourceDeleted"
        and k."vereinsId" not in (select unnest(${vereinsIds}::text[]))
      returning 1
    )
    select count(*)::int as count from marked`;
  return row?.count ?? 0;
}

/** Keeps the box's last report, which the cleanup timer uses to spot boxes that stopped reporting. */
async function recordReport(tx: TransactionSql, clubId: string, result: SyncResult): Promise<void> {
  await tx`
    insert into club_master_report (club_id, last_reported_at, reported, added, restored, refreshed, marked_deleted)
    values (${clubId}, statement_timestamp(), ${result.reported}, ${result.added}, ${result.restored},
            ${result.refreshed}, ${result.markedDeleted})
    on conflict (club_id) do update set
      last_reported_at = excluded.last_reported_at, reported = excluded.reported, added = excluded.added,
      restored = excluded.restored, refreshed = excluded.refreshed, marked_deleted = excluded.marked_deleted`;
}
