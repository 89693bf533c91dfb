import type { Queryable } from '../db/client';
import type { SyncResult } from './schemas';
import type { PreviousState } from './syncRules';

/**
 * Class id of the per-box advisory locks (two-int form), so they can never meet the migration
 * runner's single-bigint lock or another area's locks. Object id: hashtext(reportedByClubId); two
 * boxes whose ids hash alike merely wait for each other.
 */
export const KNOWN_CLUB_LOCK_CLASS = 0x434d_5359;

/**
 * Takes the box's transaction-scoped lock, waiting at most `lockTimeout` (a PostgreSQL interval
 * such as `30000ms`). lock_timeout covers advisory locks too; set_config(..., true) is `set local`
 * with a bound parameter, so the pool's sessions keep the server default.
 */
export async function lockBoxReports(tx: Queryable, reportedByClubId: string, lockTimeout: string): Promise<void> {
  await tx`select set_config('lock_timeout', ${lockTimeout}, true)`;
  await tx`select pg_advisory_xact_lock(${KNOWN_CLUB_LOCK_CLASS}, hashtext(${reportedByClubId}))`;
}

/** Inserts or reactivates every reported club; counts them by the state they were in before. */
export async function upsertReported(
  tx: Queryable,
  reportedByClubId: string,
  vereinsIds: string[],
  names: string[],
): Promise<Partial<Record<PreviousState, number>>> {
  // statement_timestamp() rather than now(): the statement starts after the lock was granted, so
  // lastSeenAt never goes backwards when reports of one box queue behind each other.
  // xmax = 0 marks a freshly inserted row. The final select reads the table with the statement's
  // snapshot, i.e. as it was before the upsert, to tell restored rows from refreshed ones; the
  // IN (subquery) becomes a hashed subplan, so the cost stays linear whatever the plan estimates.
  const [row]: [{ reported: number; added: number; restored: number }?] = await tx`
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
  // An aggregate without GROUP BY always answers one row.
  const { reported = 0, added = 0, restored = 0 } = row ?? {};
  return { absent: added, deleted: restored, active: reported - added - restored };
}

/** Marks the box's active rows that the report does not contain as sourceDeleted. */
export async function markMissingDeleted(tx: Queryable, reportedByClubId: string, vereinsIds: string[]): Promise<number> {
  // NOT IN (subquery) is a hashed subplan: linear even when a generic plan guesses the array is small.
  const [row]: [{ count: number }?] = await tx`
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
export async function recordReport(tx: Queryable, clubId: string, result: SyncResult): Promise<void> {
  await tx`
    insert into club_master_report (club_id, last_reported_at, reported, added, restored, refreshed, marked_deleted)
    values (${clubId}, statement_timestamp(), ${result.reported}, ${result.added}, ${result.restored},
            ${result.refreshed}, ${result.markedDeleted})
    on conflict (club_id) do update set
      last_reported_at = excluded.last_reported_at, reported = excluded.reported, added = excluded.added,
      restored = excluded.restored, refreshed = excluded.refreshed, marked_deleted = excluded.marked_deleted`;
}

/** The most recently reported name of an active (not sourceDeleted) row for the club number. */
export async function findReportedName(sql: Queryable, vereinsId: string): Promise<string | undefined> {
  const [known]: [{ name: string }?] = await sql`
    select "name" from "ClubDataKnownClub"
    where "vereinsId" = ${vereinsId} and not "sourceDeleted"
    order by "lastSeenAt" desc, "reportedByClubId" limit 1`;
  return known?.name;
}

/** Deletes rows that have been sourceDeleted for more than `retentionDays`; returns how many. */
export async function purgeDeletedKnownClubs(sql: Queryable, retentionDays: number): Promise<number> {
  const [row]: [{ count: number }?] = await sql`
    with purged as (
      delete from "ClubDataKnownClub"
      where "sourceDeleted" and "sourceDeletedAt" < now() - make_interval(days => ${retentionDays}::int)
      returning 1
    )
    select count(*)::int as count from purged`;
  return row?.count ?? 0;
}
