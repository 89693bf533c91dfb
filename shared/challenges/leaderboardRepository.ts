import type { Queryable } from '../db/client';
import type { LeaderboardCursor } from './cursors';

/** The reads behind the leaderboards (shared/challenges/leaderboard.ts orders and ranks them). */

export type Board = { kind: 'global' } | { kind: 'club'; clubId: string };

/**
 * A row of boardPage: which part of the answer it is, and for the own row off the page its rank's
 * count. The sharing columns and the club are set on the own row only: others' rows on a board are
 * visible by definition, and only the own row says whether others see it.
 */
export interface BoardPageRow {
  part: 'own' | 'page' | 'previous' | 'next';
  id: string;
  userId: string;
  score: string;
  /** The UTC instant as board text (`2026-01-01 00:00:31.5`, see boardTextToMicro). */
  reachedAt: string;
  status: 'active' | 'completed' | 'failed';
  sharedGlobally: boolean | null;
  sharedWithinClub: boolean | null;
  clubId: string | null;
  /** On the own row when it is not on the page: the visible rows ahead of it; null otherwise. */
  ahead: number | null;
  /** The person's display name (person_profile, as their participation carries it); null without a profile. */
  displayName: string | null;
}

/**
 * One round trip for a whole board view, each row with the person's display name, through challenge_board_view
 * (shared/db/migrations/live/challenge_board_view.sql): the viewer's own row (whatever its
 * sharing), the next `limit + 1` visible rows of others after the cursor in board order, and, only
 * when the own row will not be on this page, its rank's count and two visible neighbours each
 * side, nearest first. Whether the own row is on the page is decided there: after the cursor and
 * fewer than `limit` page rows ahead of it; leaderboard() merges it into the page only then. The parts are statements of the function, each planned once per
 * connection, and the off-page ones run only for an off-page viewer. The names come with the rows:
 * each participation carries its person's name (live/challenge_participation_names.sql), where a
 * lookup per returned row in person_profile made a first page cost nearly twice the bare page.
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
// fraction for a whole second). A page converts only the
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
