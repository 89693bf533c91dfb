import type { Queryable } from '../db/client';
import { personName } from '../people/names';
import { leaderboardCursor } from './cursors';
import { boardPage, boardTextToMicro, boardTextToShown, type Board, type BoardPageRow } from './leaderboardRepository';
import type { LeaderboardCursor, LeaderboardPage, LeaderboardRow } from './schemas';

export type { Board } from './leaderboardRepository';

/**
 * Leaderboards over the participations of one challenge, ordered by score (highest first), then
 * by who reached that score first, then by id. Others see only rows shared on that board
 * (global: shareGlobally; club: shareWithinClub or shareGlobally, rows of that club); the
 * viewer's own row is always in their view, with the rank it has among the rows they can see
 * (their own included). Hidden rows of others never count: not in ranks, not in pages. There is
 * deliberately no total count, which would cost a scan of the board and say nothing a page does not.
 */

/** A row's place in board order: its score, when it reached that score (MICRO_FORMAT text) and its id. */
interface Position {
  score: number;
  reachedAt: string;
  id: string;
}

function precedes(a: Position, b: Position): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt < b.reachedAt;
  return a.id < b.id;
}

/** Whether the own row comes before a page row; the row's instant is converted only on a tied score. */
function ownPrecedes(own: Position, entry: BoardEntry): boolean {
  const score = Number(entry.score);
  if (own.score !== score) return own.score > score;
  return precedes(own, { score, reachedAt: boardTextToMicro(entry.reachedAt), id: entry.id });
}

/** A board row as challenge_board_view gives it: the sharing flags matter on the own row only. */
type BoardEntry = Omit<BoardPageRow, 'part' | 'ahead'>;

function toRow(entry: BoardEntry, rank: number, viewerId: string, board: Board): LeaderboardRow {
  const isOwn = entry.userId === viewerId;
  return {
    rank,
    participationId: entry.id,
    userId: entry.userId,
    ...personName(entry.displayName),
    score: Number(entry.score),
    reachedAt: boardTextToShown(entry.reachedAt),
    status: entry.status,
    isOwn,
    hiddenFromOthers: isOwn && !isSharedOn(entry, board),
  };
}

function isSharedOn(entry: BoardEntry, board: Board): boolean {
  return board.kind === 'global' ? entry.sharedGlobally === true : entry.sharedGlobally === true || entry.sharedWithinClub === true;
}

export interface LeaderboardQuery {
  challengeId: string;
  viewerId: string;
  board: Board;
  limit: number;
  after?: LeaderboardCursor;
}

export async function leaderboard(sql: Queryable, query: LeaderboardQuery): Promise<LeaderboardPage> {
  const { viewerId, board, limit, after } = query;
  // One round trip: the viewer's own row (whatever its sharing), the page of visible others and,
  // when the own row is not on the page, its rank and neighbours.
  const rows = await boardPage(sql, query);
  let own: BoardPageRow | undefined;
  const merged: BoardEntry[] = [];
  const previous: BoardEntry[] = [];
  const next: BoardEntry[] = [];
  for (const row of rows) {
    if (row.part === 'page') merged.push(row);
    else if (row.part === 'own') own = row;
    else if (row.part === 'previous') previous.push(row);
    else next.push(row);
  }
  // The own row after the cursor takes its place among the rows of others: on this page, or as
  // the row that shows there is a next page.
  if (own) {
    const ownPosition = { score: Number(own.score), reachedAt: boardTextToMicro(own.reachedAt), id: own.id };
    if (!after || precedes({ score: Number(after[0]), reachedAt: after[1], id: after[2] }, ownPosition)) {
      let at = 0;
      while (at < merged.length && !ownPrecedes(ownPosition, merged[at] as BoardEntry)) at += 1;
      merged.splice(at, 0, own);
    }
  }
  const firstRank = (after?.[3] ?? 0) + 1;
  const shown = Math.min(limit, merged.length);
  const items: LeaderboardRow[] = [];
  for (let index = 0; index < shown; index += 1) items.push(toRow(merged[index] as BoardEntry, firstRank + index, viewerId, board));
  const last = merged[shown - 1];
  const nextCursor =
    merged.length > limit && last
      ? leaderboardCursor.encode([last.score, boardTextToMicro(last.reachedAt), last.id, firstRank + shown - 1])
      : null;

  let me: LeaderboardRow | null = null;
  let around: LeaderboardRow[] = [];
  // The database decides whether the own row is on this page (it counts no rank for a row on it)
  // and, when it is not, its rank: the visible rows it counted ahead of it, plus one.
  if (own?.ahead === null) {
    me = items.find((row) => row.isOwn) ?? null;
  } else if (own) {
    const rank = own.ahead + 1;
    me = toRow(own, rank, viewerId, board);
    around = [
      ...previous.map((entry, index) => toRow(entry, rank - 1 - index, viewerId, board)).reverse(),
      me,
      ...next.map((entry, index) => toRow(entry, rank + 1 + index, viewerId, board)),
    ];
  }
  return { board: board.kind, clubId: board.kind === 'club' ? board.clubId : null, items, nextCursor, me, around };
}
