import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { cursorCodec } from '../paging/cursor';
import { MICRO_FORMAT, MicroTimestampSchema } from '../paging/microTimestamp';

/**
 * Leaderboards over the participations of one challenge, ordered by score (highest first), then
 * by who reached that score first, then by id. Others see only rows shared on that board
 * (global: shareGlobally; club: shareWithinClub or shareGlobally, rows of that club); the
 * viewer's own row is always in their view, with the rank it has among the rows they can see
 * (their own included). Hidden rows of others never count: not in ranks, not in pages. There is
 * deliberately no total count, which would cost a scan of the board and say nothing a page does not.
 */

export type Board = { kind: 'global' } | { kind: 'club'; clubId: string };

export const LeaderboardRowSchema = v.object({
  rank: v.number(),
  participationId: v.string(),
  userId: v.string(),
  score: v.number(),
  reachedAt: v.pipe(v.string(), v.isoTimestamp()),
  status: v.picklist(['active', 'completed', 'failed']),
  isOwn: v.boolean(),
  /** Only on the viewer's own row: true when others cannot see it on this board. */
  hiddenFromOthers: v.boolean(),
});
export type LeaderboardRow = v.InferOutput<typeof LeaderboardRowSchema>;

export const LeaderboardPageSchema = v.object({
  board: v.picklist(['global', 'club']),
  clubId: v.nullable(v.string()),
  items: v.array(LeaderboardRowSchema),
  nextCursor: v.nullable(v.string()),
  /** The viewer's own row with its rank, wherever it is; null when they have not joined (or not on this club's board). */
  me: v.nullable(LeaderboardRowSchema),
  /** When `me` is not on this page: up to two visible rows before and after it. */
  around: v.array(LeaderboardRowSchema),
});
export type LeaderboardPage = v.InferOutput<typeof LeaderboardPageSchema>;

/** Position after which the next page starts: [score, reachedAt, id, rank of that row]. */
export const LeaderboardCursorSchema = v.tuple([
  v.pipe(v.string(), v.regex(/^-?\d{1,10}(\.\d{1,2})?$/)),
  MicroTimestampSchema,
  v.pipe(v.string(), v.maxLength(64)),
  v.pipe(v.number(), v.integer(), v.minValue(0)),
]);
export type LeaderboardCursor = v.InferOutput<typeof LeaderboardCursorSchema>;
export const leaderboardCursor = cursorCodec('challenges.leaderboard', LeaderboardCursorSchema);

interface Entry {
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

/** The board's key in challenge_board_score (014_challenge_board_histogram.sql). */
const boardKey = (board: Board) => (board.kind === 'global' ? 'global' : board.clubId);

function boardFilter(sql: Queryable, board: Board) {
  return board.kind === 'global'
    ? sql`share_globally and status <> 'cancelled'`
    : sql`club_id = ${board.clubId} and (share_within_club or share_globally) and status <> 'cancelled'`;
}

// The leading `score >=` / `score <=` repeats what the OR implies so that it becomes the index
// range: without it a scan towards the position would walk the board from its far end.
/** Rows strictly before the position in board order. */
function ahead(sql: Queryable, score: string, reachedAt: string, id: string) {
  return sql`score >= ${score}::numeric and (score > ${score}::numeric or (score_reached_at, id) < (${reachedAt}::timestamptz, ${id}))`;
}
/** Rows strictly after the position in board order. */
function behind(sql: Queryable, score: string, reachedAt: string, id: string) {
  return sql`score <= ${score}::numeric and (score < ${score}::numeric or (score_reached_at, id) > (${reachedAt}::timestamptz, ${id}))`;
}

function before(a: Entry, b: Pick<Entry, 'score' | 'reachedAt' | 'id'>): boolean {
  const scoreA = Number(a.score);
  const scoreB = Number(b.score);
  if (scoreA !== scoreB) return scoreA > scoreB;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt < b.reachedAt;
  return a.id < b.id;
}

function toRow(entry: Entry, rank: number, viewerId: string, board: Board): LeaderboardRow {
  const isOwn = entry.userId === viewerId;
  const shared = board.kind === 'global' ? entry.sharedGlobally : entry.sharedGlobally || entry.sharedWithinClub;
  return {
    rank,
    participationId: entry.id,
    userId: entry.userId,
    score: Number(entry.score),
    reachedAt: entry.reachedAt.replace(/(\.\d{3})\d{3}Z$/, '$1Z'),
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
  // One round trip: the viewer's own row (whatever its sharing) and the page of visible others.
  const rows = await sql<Entry[]>`
    (select ${sql.unsafe(ENTRY_COLUMNS)} from challenge_participation
     where challenge_id = ${challengeId} and user_id = ${viewerId} and status <> 'cancelled'
       ${board.kind === 'club' ? sql`and club_id = ${board.clubId}` : sql``})
    union all
    (select ${sql.unsafe(ENTRY_COLUMNS)} from challenge_participation
     where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and user_id <> ${viewerId}
       ${after ? sql`and ${behind(sql, after[0], after[1], after[2])}` : sql``}
     order by challenge_participation.score desc, score_reached_at, id
     limit ${limit + 1})`;
  const own = rows.find((entry) => entry.userId === viewerId);
  const visible = rows.filter((entry) => entry.userId !== viewerId);
  const merged = [...visible];
  if (own && (!after || before({ id: after[2], score: after[0], reachedAt: after[1] } as Entry, own))) {
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
      // One round trip: the rank (visible rows on higher scores from the per-score counts of
      // challenge_board_score, plus the ties reached earlier) and two visible neighbours each side.
      const [neighbourhood]: [{ ahead: number; previous: Entry[]; next: Entry[] }?] = await sql`
        select
          (select coalesce(sum(participants), 0)::int from challenge_board_score
           where challenge_id = ${challengeId} and board = ${boardKey(board)} and score > ${own.score}::numeric)
          + (select count(*)::int from challenge_participation
             where challenge_id = ${challengeId} and ${boardFilter(sql, board)} and id <> ${own.id}
               and score = ${own.score}::numeric and (score_reached_at, id) < (${own.reachedAt}::timestamptz, ${own.id})) as ahead,
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
      const rank = (neighbourhood?.ahead ?? 0) + 1;
      me = toRow(own, rank, viewerId, board);
      const previous = neighbourhood?.previous ?? [];
      const next = neighbourhood?.next ?? [];
      around = [
        ...previous.map((entry, index) => toRow(entry, rank - 1 - index, viewerId, board)).reverse(),
        me,
        ...next.map((entry, index) => toRow(entry, rank + 1 + index, viewerId, board)),
      ];
    }
  }
  return { board: board.kind, clubId: board.kind === 'club' ? board.clubId : null, items, nextCursor, me, around };
}
