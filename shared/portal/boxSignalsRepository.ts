import type { Queryable } from '../db/client';

/** What the cloud knows of one club's box: its tokens, its accepted pushes and its own check. */
export interface BoxSignalsRow {
  activeTokens: number;
  revokedTokens: number;
  tokenLastUsedAt: Date | null;
  clubMasterReportedAt: Date | null;
  clubMasterResult: { reported: number; added: number; restored: number; refreshed: number; markedDeleted: number } | null;
  starterlistPushAt: Date | null;
  lastStarterlistSeenAt: Date | null;
  boxCheckAt: Date | null;
  boxCheckEveningStart: Date | null;
  boxCheckHitsAfter: boolean | null;
}

export interface StarterlistRow {
  listId: string;
  name: string | null;
  listDate: string;
  discipline: string;
  startersCount: number;
  lastSeenAt: Date;
}

/** Starter lists the club page shows, the newest seen first. */
export const STARTERLISTS_LISTED = 5;

/** One club's box signals, read in one query across the club master and starter-list channels. */
export async function readBoxSignals(sql: Queryable, clubId: string): Promise<BoxSignalsRow> {
  const [row]: [
    {
      activeTokens: number;
      revokedTokens: number;
      tokenLastUsedAt: Date | null;
      clubMasterReportedAt: Date | null;
      reported: number | null;
      added: number | null;
      restored: number | null;
      refreshed: number | null;
      markedDeleted: number | null;
      starterlistPushAt: Date | null;
      lastStarterlistSeenAt: Date | null;
      boxCheckAt: Date | null;
      boxCheckEveningStart: Date | null;
      boxCheckHitsAfter: boolean | null;
    }?,
  ] = await sql`
    select token.active as "activeTokens", token.revoked as "revokedTokens", token.last_used_at as "tokenLastUsedAt",
           r.last_reported_at as "clubMasterReportedAt", r.reported, r.added, r.restored, r.refreshed, r.marked_deleted as "markedDeleted",
           b.last_push_at as "starterlistPushAt", b.last_starterlist_seen_at as "lastStarterlistSeenAt",
           b.box_check_at as "boxCheckAt", b.box_check_evening_start as "boxCheckEveningStart", b.box_check_hits_after as "boxCheckHitsAfter"
    from (
      select count(*) filter (where revoked_at is null)::int as active, count(*) filter (where revoked_at is not null)::int as revoked,
             max(last_used_at) as last_used_at
      from edge_token where club_id = ${clubId}
    ) token
    left join club_master_report r on r.club_id = ${clubId}
    left join edge_box_signal b on b.club_id = ${clubId}`;
  if (!row) throw new Error('The box signal query returned no row.');
  const { reported, added, restored, refreshed, markedDeleted, ...rest } = row;
  return {
    ...rest,
    clubMasterResult:
      reported === null || added === null || restored === null || refreshed === null || markedDeleted === null
        ? null
        : { reported, added, restored, refreshed, markedDeleted },
  };
}

export function listRecentStarterlists(sql: Queryable, clubId: string): Promise<StarterlistRow[]> {
  return sql<StarterlistRow[]>`
    select list_id as "listId", name, to_char(list_date, 'YYYY-MM-DD') as "listDate", discipline,
           starters_count as "startersCount", last_seen_at as "lastSeenAt"
    from edge_starterlist where club_id = ${clubId}
    order by last_seen_at desc, list_id limit ${STARTERLISTS_LISTED}`;
}

export interface PushCandidateRow {
  clubId: string;
  vereinsId: string | null;
  name: string;
  clubMasterReportedAt: Date | null;
  starterlistPushAt: Date | null;
  tokenLastUsedAt: Date | null;
}

/**
 * Active clubs with a channel whose newest accepted push is older than `cutoff`: the only clubs
 * whose pushes can be failing. One row per club; the caller judges each channel (boxPushState).
 */
export function listPushesOlderThan(sql: Queryable, cutoff: Date): Promise<PushCandidateRow[]> {
  return sql<PushCandidateRow[]>`
    select c.id as "clubId", c.vereins_id as "vereinsId", c.name,
           r.last_reported_at as "clubMasterReportedAt", b.last_push_at as "starterlistPushAt",
           (select max(t.last_used_at) from edge_token t where t.club_id = c.id) as "tokenLastUsedAt"
    from club c
    left join club_master_report r on r.club_id = c.id
    left join edge_box_signal b on b.club_id = c.id
    where c.status = 'active' and (r.last_reported_at < ${cutoff} or b.last_push_at < ${cutoff})
    order by c.id`;
}
