import type { Queryable } from '../db/client';
import { MICRO_FORMAT } from '../paging/microTimestamp';
import type { LeaderboardCursor } from './cursors';

/** The reads behind the leaderboards (shared/challenges/leaderboard.ts orders and ranks them). */

export type Board = { kind: 'global' } | { kind: 'club'; clubId: string };

export interface Entry {
  id: string;
  userId: string;
  score: string;
  reachedAt: string;
  status: 'active' | 'completed' | 'failed';
  sharedGlobally: boolean;
  sharedWithinClub: boolean;
  clubId: string | null;
}

// ORDER BY must name challenge_participation.score: a bare `score` would be this text alias.
const ENTRY_COLUMNS = `id, user_id as "userId", score::text as score,
  to_char(score_reached_at at time zone 'UTC', '${MICRO_FORMAT}') as "reachedAt", status,
  share_globally as "sharedGlobally", share_within_club as "sharedWithinClub", club_id as "clubId"`;

/** The board's key in challenge_board_score (018_challenge_board_keys.sql): never equal for a club and the global board. */
const boardKey = (board: Board) => (board.kind === 'global' ? 'global' : `club:${board.clubId}`);

function boardFilter(sql: Queryable, board: Board) {
  return board.kind === 'global'
    ? sql`share_globally and status <> 'cancelled'`
    : sql`club_id = ${board.clubId} and (share_within_club or share_globally) and status <> 'cancelled'`;
}

// Positions are text with microseconds, cast `::text::timestamptz`: a parameter the server types
// as timestamptz is serialised through a JS Date, which would drop the microseconds and make the
// next page start at the last row again (tests/challenges/cursorPrecision.test.ts).
// The leading `score >=` / `score <=` repeats what the OR implies so that it becomes the index
// range: without it a scan towards the position would walk the board from its far end.
/** Rows strictly after the position in board order. */
function behind(sql: Queryable, score: string, reachedAt: string, id: string) {
  return sql`score <= ${score}::numeric and (score < ${score}::numeric or (score_reached_at, id) > (${reachedAt}::text::timestamptz, ${id}))`;
}

// The columns of ENTRY_COLUMNS by their names, for selecting them again from a CTE.
const ENTRY_NAMES = `id, "userId", score, "reachedAt", status, "sharedGlobally", "sharedWithinClub", "clubId"`;

/** A row of boardPage: which part of the answer it is. */
export interface BoardPageRow extends Entry {
  part: 'own' | 'page';
}

/**
 * The page's row count as SQL text. The one value of the statement that is not a parameter: with
 * `limit $n` the planner prices the cached generic plan as if the page were a tenth of the board,
 * so PostgreSQL planned this statement afresh on every call (about 0.7 ms, more than it takes to
 * run); with the number in the text the cached plan is used. Only a whole number 1..101 (a page
 * of at most 100 rows and the one more that shows whether a next page exists) ever gets here,
 * checked again here since it is not a parameter; one statement per page size stays cached.
 */
function pageRows(limit: number): string {
  const rows = limit + 1;
  if (!Number.isSafeInteger(rows) || rows < 2 || rows > 101) throw new RangeError(`page limit out of range: ${limit}`);
  return String(rows);
}

/**
 * One round trip for the page: the viewer's own row (whatever its sharing) and the next
 * `limit + 1` visible rows of others after the cursor in board order. A viewer whose row is not on
 * the page gets its rank and neighbours from neighbourhoodOf, a second statement. Folded into this
 * one (as parts computed only when the own row is off the page) they cost every call, on the page
 * or not: PostgreSQL starts every node of a plan, run or not, and the rank's and neighbours' six
 * index scans and aggregates made this statement take 0.24 ms against 0.19 ms without them for a
 * viewer on the page, while the second round trip is paid only by viewers off the page.
 */
export function boardPage(
  sql: Queryable,
  query: { challengeId: string; viewerId: string; board: Board; limit: number; after: LeaderboardCursor | undefined },
): Promise<BoardPageRow[]> {
  const { challengeId, viewerId, board, limit, after } = query;
  return sql<BoardPageRow[]>`
    (select 'own' as part, ${sql.unsafe(ENTRY_COLUMNS)}
     from challenge_participation
     where challenge_id = ${challengeId} and user_id = ${viewerId} and status <> 'cancelled'
       ${board.kind === 'club' ? sql`and club_id = ${board.clubId}` : sql``})
    union all
    (select 'page', ${sql.unsafe(ENTRY_COLUMNS)}
     from challenge_participation
     where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and user_id <> ${viewerId}
       ${after ? sql`and ${behind(sql, after[0], after[1], after[2])}` : sql``}
     order by challenge_participation.score desc, score_reached_at, id
     limit ${sql.unsafe(pageRows(limit))})`;
}

export interface Neighbourhood {
  /** Visible rows ahead of the own row. */
  ahead: number;
  /** Up to two visible rows just ahead, nearest first. */
  previous: Entry[];
  /** Up to two visible rows just behind, nearest first. */
  next: Entry[];
}

/**
 * The visible rows nearest the own row on one side, nearest first, at most two, as JSON. Each side
 * is two index ranges whose bounds are exact: the ties on the own score past the own row (the row
 * comparison on (score_reached_at, id) is an index bound there) and the scores beyond. As one range
 * (`score >= own and (score > own or (reached, id) < own)`) the scan started at the far end of the
 * own score's ties and read every tie on the wrong side of the own row from the heap only to drop
 * it (132 rows at the bench's tie density, most of the mid-board view's cost).
 */
function nearest(sql: Queryable, challengeId: string, board: Board, own: Entry, side: 'previous' | 'next') {
  const previous = side === 'previous';
  const at = sql`(${own.reachedAt}::text::timestamptz, ${own.id})`;
  const ties = previous
    ? sql`score = ${own.score}::numeric and (score_reached_at, id) < ${at}`
    : sql`score = ${own.score}::numeric and (score_reached_at, id) > ${at}`;
  const beyond = previous ? sql`score > ${own.score}::numeric` : sql`score < ${own.score}::numeric`;
  // Board order is score desc, reached, id; the side ahead is read against it, nearest first.
  const boardOrder = previous
    ? 'challenge_participation.score, score_reached_at desc, id desc'
    : 'challenge_participation.score desc, score_reached_at, id';
  const range = (bound: typeof ties) => sql`(
    select ${sql.unsafe(ENTRY_COLUMNS)}, challenge_participation.score as board_score, score_reached_at as board_at
    from challenge_participation
    where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and ${bound}
    order by ${sql.unsafe(boardOrder)} limit 2)`;
  const unionOrder = previous ? 'u.board_score, u.board_at desc, u.id desc' : 'u.board_score desc, u.board_at, u.id';
  return sql`coalesce((select json_agg(t) from (
    select ${sql.unsafe(ENTRY_NAMES)} from (${range(ties)} union all ${range(beyond)}) u
    order by ${sql.unsafe(unionOrder)} limit 2) as t), '[]')`;
}

/**
 * The own row's neighbourhood, for a viewer whose row is not on the page. One round trip: the
 * rank (visible rows on higher scores from the per-score counts of challenge_board_score, plus the
 * ties reached earlier) and two visible neighbours each side.
 */
export async function neighbourhoodOf(sql: Queryable, query: { challengeId: string; board: Board; own: Entry }): Promise<Neighbourhood> {
  const { challengeId, board, own } = query;
  const [row]: [Neighbourhood?] = await sql`
    select
      (select coalesce(sum(participants), 0)::int from challenge_board_score
       where challenge_id = ${challengeId} and board = ${boardKey(board)} and score > ${own.score}::numeric)
      + (select count(*)::int from challenge_participation
         where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and id <> ${own.id}
           and score = ${own.score}::numeric and (score_reached_at, id) < (${own.reachedAt}::text::timestamptz, ${own.id})) as ahead,
      ${nearest(sql, challengeId, board, own, 'previous')} as previous,
      ${nearest(sql, challengeId, board, own, 'next')} as next`;
  return row ?? { ahead: 0, previous: [], next: [] };
}
