import type { Queryable, Sql } from '../db/client';
import type { ClubFreshness } from './clubFreshness';
import type { FreshnessStatus } from './evaluation';

// Overlapping timer runs (a retry while a slow run still writes) take turns on this key, so each
// sees the state the other committed and a change is recorded once.
export const FRESHNESS_STATE_LOCK = 4_110_901;

export interface StatusChange {
  clubId: string;
  status: FreshnessStatus;
  previousStatus: FreshnessStatus | null;
}

/** Notices the run has claimed and must now send: one per stale evening, one per recovery. */
export interface ClaimedNotices {
  stale: { clubId: string; eveningStart: Date }[];
  recovered: string[];
}

export interface RecordOutcome {
  changes: StatusChange[];
  notices: ClaimedNotices;
}

/**
 * Records one evaluation run in one transaction: every club's current status (with since when
 * it holds and the evening evaluated), a history row for each status change, and the claims of
 * the notices due — a stale club whose evaluated evening has not been announced yet, and a club
 * back to ok whose stale notice still awaits its recovery notice. Claiming before sending makes
 * each notice go out at most once even when runs overlap; releaseClaims hands a claim back when
 * its sending failed.
 */
export async function recordFreshness(sql: Sql, clubs: readonly ClubFreshness[], now: Date): Promise<RecordOutcome> {
  const ids = clubs.map((club) => club.signals.clubId);
  const statuses = clubs.map((club) => club.verdict.status);
  const starts = clubs.map((club) => club.verdict.evening.start.toISOString());
  const ends = clubs.map((club) => club.verdict.evening.end.toISOString());
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${FRESHNESS_STATE_LOCK})`;
    const changes = await tx<StatusChange[]>`
      with incoming as (
        select * from unnest(${ids}::text[], ${statuses}::text[], ${starts}::timestamptz[], ${ends}::timestamptz[])
          as t(club_id, status, evening_start, evening_end)
      ),
      previous as (
        select state.club_id, state.status from club_freshness_state state join incoming using (club_id)
      ),
      upserted as (
        insert into club_freshness_state as state (club_id, status, since, evening_start, evening_end, evaluated_at)
        select club_id, status, ${now}, evening_start, evening_end, ${now} from incoming
        order by club_id
        on conflict (club_id) do update set
          since = case when state.status = excluded.status then state.since else excluded.since end,
          status = excluded.status,
          evening_start = excluded.evening_start,
          evening_end = excluded.evening_end,
          evaluated_at = excluded.evaluated_at
        returning state.club_id
      ),
      changed as (
        insert into club_freshness_history (club_id, status, previous_status, evening_start, evening_end, changed_at)
        select incoming.club_id, incoming.status, previous.status, incoming.evening_start, incoming.evening_end, ${now}
        from incoming left join previous using (club_id)
        where previous.status is distinct from incoming.status
        order by incoming.club_id
        returning club_id, status, previous_status
      )
      select club_id as "clubId", status, previous_status as "previousStatus" from changed order by club_id`;
    const stale = await tx<{ clubId: string; eveningStart: Date }[]>`
      update club_freshness_state set stale_notice_evening_start = evening_start, stale_notice_open = true
      where club_id = any(${ids}::text[]) and status = 'stale'
        and stale_notice_evening_start is distinct from evening_start
      returning club_id as "clubId", evening_start as "eveningStart"`;
    const recovered = await tx<{ clubId: string }[]>`
      update club_freshness_state set stale_notice_open = false
      where club_id = any(${ids}::text[]) and status = 'ok' and stale_notice_open
      returning club_id as "clubId"`;
    return { changes, notices: { stale, recovered: recovered.map((row) => row.clubId) } };
  });
}

/** Hands back a stale-notice claim whose sending failed, so the next run sends it again. */
export async function releaseStaleClaim(sql: Queryable, clubId: string, eveningStart: Date): Promise<void> {
  await sql`
    update club_freshness_state set stale_notice_evening_start = null
    where club_id = ${clubId} and stale_notice_evening_start = ${eveningStart}`;
}

/** Hands back a recovery-notice claim whose sending failed. */
export async function releaseRecoveryClaim(sql: Queryable, clubId: string): Promise<void> {
  await sql`update club_freshness_state set stale_notice_open = true where club_id = ${clubId} and status = 'ok'`;
}

export interface HistoryEntry {
  status: FreshnessStatus;
  previousStatus: FreshnessStatus | null;
  eveningStart: Date | null;
  eveningEnd: Date | null;
  changedAt: Date;
}

/** The club's status changes, newest first. */
export async function listFreshnessHistory(sql: Queryable, clubId: string, limit = 50, offset = 0): Promise<HistoryEntry[]> {
  return sql<HistoryEntry[]>`
    select status, previous_status as "previousStatus", evening_start as "eveningStart", evening_end as "eveningEnd",
           changed_at as "changedAt"
    from club_freshness_history where club_id = ${clubId}
    order by changed_at desc, id desc
    limit ${limit} offset ${offset}`;
}
