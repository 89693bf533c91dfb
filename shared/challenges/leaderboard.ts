import type { Queryable } from '../db/client';
import { millisecondTimestampOf } from '../paging/microTimestamp';
import { leaderboardCursor } from './cursors';
import { boardPage, neighbourhoodOf, type Board, type BoardPageRow, type Entry } from './leaderboardRepository';
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

function before(a: Pick<Entry, 'score' | 'reachedAt' | 'id'>, b: Pick<Entry, 'score' | 'reachedAt' | 'id'>): boolean {
  const scoreA = Number(a.score);
  const scoreB = Number(b.score);
  if (scoreA !== scoreB) return scoreA > scoreB;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt < b.reachedAt;
  return a.id < b.id;
}

/** A board row as the page statement and neighbourhoodOf give it: the sharing flags matter on the own row only. */
type BoardEntry = Omit<BoardPageRow, 'part' | 'ahead'>;

function toRow(entry: BoardEntry, rank: number, viewerId: string, board: Board): LeaderboardRow {
  const isOwn = entry.userId === viewerId;
  const shared = board.kind === 'global' ? entry.sharedGlobally === true : entry.sharedGlobally === true || entry.sharedWithinClub === true;
  return {
    rank,
    participationId: entry.id,
    userId: entry.userId,
    score: Number(entry.score),
    reachedAt: millisecondTimestampOf(entry.reachedAt),
    status: entry.status,
    isOwn,
    hiddenFromOthers: isOwn && !shared,
  };
}

export interface LeaderboardQuery {
  challengeId: string;
  viewerId: string;
  board: Board;
  limit: number;
  after?: LeaderboardCursor;
}

export async function leaderboard(sql: Queryable, query: LeaderboardQuery): Promise<LeaderboardPage> {
  const { challengeId, viewerId, board, limit } = query;
  const after = query.after;
  // One round trip: the viewer's own row (whatever its sharing), the page of visible others and,
  // when the own row is not on the page, its rank and neighbours.
  const rows = await boardPage(sql, { challengeId, viewerId, board, limit, after });
  const ownRow = rows.find((entry) => entry.part === 'own');
  const own: BoardEntry | undefined = ownRow;
  const merged: BoardEntry[] = rows.filter((entry) => entry.part === 'page');
  if (own && (!after || before({ id: after[2], score: after[0], reachedAt: after[1] }, own))) {
    const at = merged.findIndex((entry) => before(own, entry));
    merged.splice(at === -1 ? merged.length : at, 0, own);
  }
  const firstRank = (after?.[3] ?? 0) + 1;
  const pageEntries = merged.slice(0, limit);
  const items = pageEntries.map((entry, index) => toRow(entry, firstRank + index, viewerId, board));
  const last = pageEntries[pageEntries.length - 1];
  const nextCursor =
    merged.length > limit && last
      ? leaderboardCursor.encode([last.score, last.reachedAt, last.id, firstRank + pageEntries.length - 1])
      : null;

  let me: LeaderboardRow | null = null;
  let around: LeaderboardRow[] = [];
  if (own) {
    const onPage = items.find((row) => row.isOwn);
    if (onPage) {
      me = onPage;
    } else {
      // The statement judged the own row's place as this merge did, so it brought the neighbourhood;
      // should the two ever disagree, the neighbourhood is read on its own rather than shown wrong.
      const neighbourhood: { ahead: number; previous: BoardEntry[]; next: BoardEntry[] } =
        ownRow?.ahead !== null && ownRow?.ahead !== undefined
          ? {
              ahead: ownRow.ahead,
              previous: rows.filter((entry) => entry.part === 'previous'),
              next: rows.filter((entry) => entry.part === 'next'),
            }
          : await neighbourhoodOf(sql, { challengeId, board, own });
      const rank = neighbourhood.ahead + 1;
      me = toRow(own, rank, viewerId, board);
      const previous = neighbourhood.previous;
      const next = neighbourhood.next;
      around = [
        ...previous.map((entry, index) => toRow(entry, rank - 1 - index, viewerId, board)).reverse(),
        me,
        ...next.map((entry, index) => toRow(entry, rank + 1 + index, viewerId, board)),
      ];
    }
  }
  return { board: board.kind, clubId: board.kind === 'club' ? board.clubId : null, items, nextCursor, me, around };
}
