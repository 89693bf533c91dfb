import type { Queryable } from '../db/client';
import type { LeaderboardCursor } from './cursors';

/** The reads behind the leaderboards (shared/challenges/leaderboard.ts orders and ranks them). */

export type Board = { kind: 'global' } | { kind: 'club'; clubId: string };

export interface Entry {
  id: string;
  userId: string;
  score: string;
  /** The UTC instant as board text (`2026-01-01 00:00:31.5`, see boardTextToMicro). */
  reachedAt: string;
  status: 'active' | 'completed' | 'failed';
  sharedGlobally: boolean;
  sharedWithinClub: boolean;
  clubId: string | null;
}

// ORDER BY must name challenge_participation.score: a bare `score` would be this text alias.
const ENTRY_COLUMNS = `id, user_id as "userId", score::text as score,
  to_char(score_reached_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as "reachedAt", status,
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
/** Rows strictly before the position in board order. */
function ahead(sql: Queryable, score: string, reachedAt: string, id: string) {
  return sql`score >= ${score}::numeric and (score > ${score}::numeric or (score_reached_at, id) < (${reachedAt}::text::timestamptz, ${id}))`;
}
/** Rows strictly after the position in board order. */
function behind(sql: Queryable, score: string, reachedAt: string, id: string) {
  return sql`score <= ${score}::numeric and (score < ${score}::numeric or (score_reached_at, id) > (${reachedAt}::text::timestamptz, ${id}))`;
}

/**
 * A row of boardPage: which part of the answer it is, and for the own row off the page its rank's
 * count. The sharing columns and the club are set on the own row only: others' rows on a board are
 * visible by definition, and only the own row says whether others see it.
 */
export interface BoardPageRow extends Omit<Entry, 'sharedGlobally' | 'sharedWithinClub' | 'clubId'> {
  part: 'own' | 'page' | 'previous' | 'next';
  sharedGlobally: boolean | null;
  sharedWithinClub: boolean | null;
  clubId: string | null;
  /** On the own row when it is not on the page: the visible rows ahead of it; null otherwise. */
  ahead: number | null;
}

/**
 * One round trip for a whole board view, through challenge_board_view (migrations 024 to 026): the
 * viewer's own row (whatever its sharing), the next `limit + 1` visible rows of others after the
 * cursor in board order, and, only when the own row will not be on this page, its rank's count (as
 * neighbourhoodOf counts it) and two visible neighbours each side, nearest first. Whether the own
 * row is on the page is decided there as leaderboard() merges it: after the cursor and fewer than
 * `limit` page rows ahead of it. The parts are statements of the function, each planned once per
 * connection, and the off-page ones run only for an off-page viewer.
 */
export function boardPage(
  sql: Queryable,
  query: { challengeId: string; viewerId: string; board: Board; limit: number; after?: LeaderboardCursor | undefined },
): Promise<BoardPageRow[]> {
  const { challengeId, viewerId, board, limit, after } = query;
  const clubId = board.kind === 'club' ? board.clubId : null;
  return sql<BoardPageRow[]>`
    select * from challenge_board_view(${challengeId}, ${clubId}, ${viewerId}, ${limit},
      ${after?.[0] ?? null}::numeric, ${after?.[1] ?? null}::text::timestamptz, ${after?.[2] ?? null})`;
}

// A board row's instant is board text: the UTC timestamp as PostgreSQL's DateStyle ISO writes it,
// `2026-01-01 00:00:31.5` (challenge_board_view: trailing zeros of the fraction dropped, no
// fraction for a whole second) or with all six digits (neighbourhoodOf). A page converts only the
// rows it compares or puts in a cursor to microseconds, and each row it shows once to milliseconds.

/** Board text as an ISO 8601 UTC instant with `digits` digits of the fraction, cut (not rounded). */
function isoFromBoardText(text: string, digits: number): string {
  const space = text.indexOf(' ');
  return `${text.slice(0, space)}T${text.slice(space + 1, space + 9)}.${text.slice(space + 10, space + 10 + digits).padEnd(digits, '0')}Z`;
}

/** Board text in the format of MICRO_FORMAT (`2026-01-01T00:00:31.500000Z`), for cursors and comparisons. */
export const boardTextToMicro = (text: string): string => isoFromBoardText(text, 6);

/** Board text as the API shows instants, cut to milliseconds (`2026-01-01T00:00:31.500Z`). */
export const boardTextToShown = (text: string): string => isoFromBoardText(text, 3);

export interface Neighbourhood {
  /** Visible rows ahead of the own row. */
  ahead: number;
  /** Up to two visible rows just ahead, nearest first. */
  previous: Entry[];
  /** Up to two visible rows just behind, nearest first. */
  next: Entry[];
}

/**
 * The own row's neighbourhood on its own, for a caller that decided differently from boardPage
 * whether the own row is on the page. One round trip: the rank (visible rows on higher scores from the per-score counts of
 * challenge_board_score, plus the ties reached earlier) and two visible neighbours each side.
 */
export async function neighbourhoodOf(
  sql: Queryable,
  query: { challengeId: string; board: Board; own: Pick<Entry, 'id' | 'score' | 'reachedAt'> },
): Promise<Neighbourhood> {
  const { challengeId, board } = query;
  const own = { ...query.own, reachedAt: boardTextToMicro(query.own.reachedAt) };
  const [row]: [Neighbourhood?] = await sql`
    select
      (select coalesce(sum(participants), 0)::int from challenge_board_score
       where challenge_id = ${challengeId} and board = ${boardKey(board)} and score > ${own.score}::numeric)
      + (select count(*)::int from challenge_participation
         where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and id <> ${own.id}
           and score = ${own.score}::numeric and (score_reached_at, id) < (${own.reachedAt}::text::timestamptz, ${own.id})) as ahead,
      coalesce((select json_agg(t) from (
        select ${sql.unsafe(ENTRY_COLUMNS)} from challenge_participation
        where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and id <> ${own.id}
          and ${ahead(sql, own.score, own.reachedAt, own.id)}
        order by challenge_participation.score, score_reached_at desc, id desc limit 2) as t), '[]') as previous,
      coalesce((select json_agg(t) from (
        select ${sql.unsafe(ENTRY_COLUMNS)} from challenge_participation
        where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and id <> ${own.id}
          and ${behind(sql, own.score, own.reachedAt, own.id)}
        order by challenge_participation.score desc, score_reached_at, id limit 2) as t), '[]') as next`;
  return row ?? { ahead: 0, previous: [], next: [] };
}
