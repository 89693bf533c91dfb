import type { Queryable } from '../db/client';

/** The reads behind the XP ladders (shared/challenges/ladder.ts ranks and pages them). */

export type LadderPeriod = { kind: 'lifetime' } | { kind: 'season'; seasonId: string };
export type LadderBoard = { kind: 'global' } | { kind: 'club'; clubId: string };

export interface LadderEntry {
  userId: string;
  xp: number;
  sharedGlobally: boolean;
  sharedWithinClub: boolean;
  /** The person's display name (person_profile); null without a profile. */
  displayName: string | null;
}

/** The totals of the period, with the copy of the owner's shareGlobally (migration 021). */
function totals(sql: Queryable, period: LadderPeriod) {
  return period.kind === 'lifetime'
    ? sql`select user_id, lifetime_xp as xp, share_globally from xp_total`
    : sql`select user_id, xp, share_globally from xp_season_total where season_id = ${period.seasonId}`;
}

/**
 * The columns of a LadderEntry over `t` (the totals) and `sp` (the sharing preference). The name
 * is looked up in the same statement by primary key; PostgreSQL evaluates such a lookup after the
 * sort and limit, so only for the rows a page returns.
 */
const COLUMNS = `t.user_id as "userId", t.xp, t.share_globally as "sharedGlobally",
  coalesce(sp.share_within_club, false) as "sharedWithinClub",
  (select p.display_name from person_profile p where p.user_id = t.user_id) as "displayName"`;

/**
 * The rows others see on a ladder, by the user's sharing preferences (the opt-in the boards use):
 * the global ladder shows who shares globally (the partial index over the copied flag); a club
 * ladder the club's members who share within the club or globally, read from the club's
 * memberships, so its cost is bounded by the club's size.
 */
function visibleRows(sql: Queryable, period: LadderPeriod, board: LadderBoard) {
  return board.kind === 'global'
    ? sql`from (${totals(sql, period)}) t left join challenge_sharing_preference sp on sp.user_id = t.user_id
          where t.share_globally`
    : sql`from club_membership m join (${totals(sql, period)}) t on t.user_id = m.user_id
          left join challenge_sharing_preference sp on sp.user_id = t.user_id
          where m.club_id = ${board.clubId} and (t.share_globally or coalesce(sp.share_within_club, false))`;
}

// The leading `t.xp <=` / `t.xp >=` repeats what the OR implies so that it becomes the index
// range: without it a scan towards the position would walk the ladder from its far end.
/** Rows strictly after a position in ladder order (XP descending, then user id). */
const behind = (sql: Queryable, xp: number, userId: string) =>
  sql`t.xp <= ${xp} and (t.xp < ${xp} or (t.xp = ${xp} and t.user_id > ${userId}))`;
/** Rows strictly before a position in ladder order. */
const ahead = (sql: Queryable, xp: number, userId: string) =>
  sql`t.xp >= ${xp} and (t.xp > ${xp} or (t.xp = ${xp} and t.user_id < ${userId}))`;

/**
 * One round trip: the viewer's own row (whatever their sharing; on a club ladder only when they
 * are a member of the club) and the next `limit + 1` visible rows of others after the position.
 */
export function ladderPageWithOwnRow(
  sql: Queryable,
  query: { period: LadderPeriod; board: LadderBoard; viewerId: string; limit: number; after: { xp: number; userId: string } | undefined },
): Promise<LadderEntry[]> {
  const { period, board, viewerId, limit, after } = query;
  return sql<LadderEntry[]>`
    (select ${sql.unsafe(COLUMNS)}
     from (${totals(sql, period)}) t left join challenge_sharing_preference sp on sp.user_id = t.user_id
     where t.user_id = ${viewerId}
       ${board.kind === 'club' ? sql`and exists (select 1 from club_membership m where m.club_id = ${board.clubId} and m.user_id = t.user_id)` : sql``})
    union all
    (select ${sql.unsafe(COLUMNS)} ${visibleRows(sql, period, board)} and t.user_id <> ${viewerId}
       ${after ? sql`and ${behind(sql, after.xp, after.userId)}` : sql``}
     order by t.xp desc, t.user_id
     limit ${limit + 1})`;
}

export interface LadderNeighbourhood {
  /** Visible rows of others ahead of the own row. */
  ahead: number;
  /** Up to two visible rows just ahead, nearest first. */
  previous: LadderEntry[];
  /** Up to two visible rows just behind, nearest first. */
  next: LadderEntry[];
}

/** The own row's rank among the visible rows and two visible neighbours each side, in one round trip. */
export async function ladderNeighbourhood(
  sql: Queryable,
  query: { period: LadderPeriod; board: LadderBoard; own: LadderEntry },
): Promise<LadderNeighbourhood> {
  const { period, board, own } = query;
  const others = sql`${visibleRows(sql, period, board)} and t.user_id <> ${own.userId}`;
  const columns = sql.unsafe(COLUMNS);
  const [row]: [LadderNeighbourhood?] = await sql`
    select
      (select count(*)::int ${others} and ${ahead(sql, own.xp, own.userId)}) as ahead,
      coalesce((select json_agg(n) from (select ${columns} ${others} and ${ahead(sql, own.xp, own.userId)}
                order by t.xp, t.user_id desc limit 2) as n), '[]') as previous,
      coalesce((select json_agg(n) from (select ${columns} ${others} and ${behind(sql, own.xp, own.userId)}
                order by t.xp desc, t.user_id limit 2) as n), '[]') as next`;
  return row ?? { ahead: 0, previous: [], next: [] };
}
