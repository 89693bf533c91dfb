import { leaderboardCursor } from '../../shared/challenges/cursors';
import { leaderboard, type Board } from '../../shared/challenges/leaderboard';
import { boardPage, boardTextToMicro } from '../../shared/challenges/leaderboardRepository';
import type { LeaderboardPage, LeaderboardRow } from '../../shared/challenges/schemas';
import { getSql } from '../../shared/db/client';
import { createClub, makeChallenge, unique } from './support';

interface Participation {
  id: string;
  userId: string;
  clubId: string | null;
  score: number;
  /** Microseconds after the base instant. */
  micros: number;
  shareWithinClub: boolean;
  shareGlobally: boolean;
  status: 'active' | 'completed' | 'failed' | 'cancelled';
}

const BASE = Date.parse('2026-09-01T10:00:00Z');
const instant = (micros: number) => {
  const text = new Date(BASE + Math.floor(micros / 1000)).toISOString();
  return `${text.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
};

/** Board order: score, then who reached it first, then id. */
const inOrder = (a: Participation, b: Participation) =>
  b.score - a.score || a.micros - b.micros || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

type Shown = Pick<LeaderboardRow, 'rank' | 'userId' | 'score' | 'reachedAt' | 'isOwn' | 'hiddenFromOthers'>;
const shown = (row: LeaderboardRow): Shown => ({
  rank: row.rank,
  userId: row.userId,
  score: row.score,
  reachedAt: row.reachedAt,
  isOwn: row.isOwn,
  hiddenFromOthers: row.hiddenFromOthers,
});

const isVisible = (row: Participation, board: Board) =>
  board.kind === 'global' ? row.shareGlobally : row.clubId === board.clubId && (row.shareWithinClub || row.shareGlobally);

/** The viewer's view in board order, as the model says: others' visible rows and the viewer's own row. */
function modelView(rows: Participation[], board: Board, viewerId: string): Participation[] {
  const live = rows.filter((row) => row.status !== 'cancelled');
  const own = live.find((row) => row.userId === viewerId && (board.kind === 'global' || row.clubId === board.clubId));
  return live.filter((row) => row === own || (row.userId !== viewerId && isVisible(row, board))).sort(inOrder);
}

/**
 * Every page of every viewer's view, from a model of the rules in shared/challenges/leaderboard.ts:
 * others' visible rows and the viewer's own row in board order, ranked by position; the own row's
 * rank and two rows each side whenever it is not on the page shown.
 */
function expectedPages(rows: Participation[], board: Board, viewerId: string, limit: number) {
  const visible = (row: Participation) => isVisible(row, board);
  const view = modelView(rows, board, viewerId);
  const own = view.find((row) => row.userId === viewerId);
  const toShown = (row: Participation, index: number): Shown => ({
    rank: index + 1,
    userId: row.userId,
    score: row.score,
    // Shown to the millisecond, cut (not rounded) as a JS Date prints it.
    reachedAt: `${instant(row.micros).slice(0, 23)}Z`,
    isOwn: row === own,
    hiddenFromOthers: row === own && !visible(row),
  });
  const pages: { items: Shown[]; me: Shown | null; around: Shown[]; last: boolean }[] = [];
  for (let start = 0; start === 0 || start < view.length; start += limit) {
    const items = view.slice(start, start + limit).map((row, index) => toShown(row, start + index));
    const ownIndex = own ? view.indexOf(own) : -1;
    const onPage = ownIndex >= start && ownIndex < start + limit;
    const me = own ? toShown(own, ownIndex) : null;
    const around =
      own && !onPage
        ? view.slice(Math.max(0, ownIndex - 2), ownIndex + 3).map((row, index) => toShown(row, Math.max(0, ownIndex - 2) + index))
        : [];
    pages.push({ items, me, around, last: start + limit >= view.length });
  }
  return pages;
}

/**
 * Ties on score and on the instant, instants apart only in microseconds, every sharing choice,
 * cancelled rows and rows of another club: each view of each board, page by page, as the model says.
 * The rank and the neighbours of an own row off the page come from per-score and per-band counts and index
 * ranges bounded at the own row, so ties on both sides of it are where they could go wrong.
 */
async function seedBoardOfTies(scores: readonly number[]) {
  const club = await createClub();
  const otherClub = await createClub();
  const challenge = await makeChallenge();
  const statuses = ['active', 'completed', 'failed', 'cancelled', 'active', 'active'] as const;
  const rows: Participation[] = [];
  for (let n = 0; n < 30; n += 1) {
    const row = {
      userId: unique(`tie${n}`),
      clubId: n % 5 === 4 ? otherClub.clubId : n % 7 === 6 ? null : club.clubId,
      score: scores[n % scores.length]!,
      // Several rows share an instant (the id decides), others differ below the millisecond; the
      // instants' fractions have from none to six digits.
      micros: [0, 0, 1, 999, 1000, 120_000, 500_500][(n * 5) % 7]!,
      shareWithinClub: n % 3 !== 0,
      shareGlobally: n % 4 < 2,
      status: statuses[(n * 7) % 6]!,
    };
    const [inserted] = await getSql()<{ id: string }[]>`
        insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, deadline_at, score, score_reached_at,
          share_within_club, share_globally, status)
        values (${challenge.id}, ${row.userId}, ${row.clubId}, '{}', 10, now() + interval '30 days', ${row.score},
          ${instant(row.micros)}::text::timestamptz, ${row.shareWithinClub}, ${row.shareGlobally}, ${row.status})
        returning id`;
    rows.push({ ...row, id: inserted!.id });
  }
  return { club, challenge, rows };
}

async function expectEveryViewAsModelled(scores: readonly number[], minimumOffPageViews: number): Promise<void> {
  const { club, challenge, rows } = await seedBoardOfTies(scores);
  const viewers = [...rows.map((row) => row.userId), unique('outsider')];
  const boards: Board[] = [{ kind: 'global' }, { kind: 'club', clubId: club.clubId }];
  let offPageViews = 0;
  for (const board of boards) {
    for (const viewerId of viewers) {
      for (const limit of [1, 2, 5]) {
        const expected = expectedPages(rows, board, viewerId, limit);
        let after: ReturnType<typeof leaderboardCursor.decode>;
        for (const [index, page] of expected.entries()) {
          const actual: LeaderboardPage = await leaderboard(getSql(), { challengeId: challenge.id, viewerId, board, limit, after });
          const context = { board: board.kind, viewerId, limit, page: index };
          expect({
            ...context,
            items: actual.items.map(shown),
            me: actual.me && shown(actual.me),
            around: actual.around.map(shown),
          }).toEqual({
            ...context,
            items: page.items,
            me: page.me,
            around: page.around,
          });
          expect(actual.nextCursor === null).toBe(page.last);
          if (page.around.length) offPageViews += 1;
          if (!actual.nextCursor) break;
          after = leaderboardCursor.decode(actual.nextCursor);
        }
      }
    }
  }
  expect(offPageViews).toBeGreaterThan(minimumOffPageViews);
}

describe('leaderboard views on a board full of ties', () => {
  it('matches the model for every viewer, board, page size and page', async () => {
    await expectEveryViewAsModelled([40, 25.5, 25.5, 10, 10, 10], 100);
  });

  // A rank sums the higher scores of the own band one by one and the higher bands as one count
  // each (migration 025): scores on both sides of band edges, of every width, and below zero.
  it('matches the model on a board of scores across band edges and scales', async () => {
    await expectEveryViewAsModelled([259.99, 260, 250, 1234.56, 1200, 9.99, 10, 0.99, 1, -0.5, -2.25, 99.99, 100, 255.5, 255.5], 100);
  });

  // The view's count of the rows ahead is the rank leaderboard() shows for an own row off the page,
  // and its neighbours the rows it shows around it: both as the model says.
  it('counts the rows ahead of an own row off the page and brings its neighbours as the model says', async () => {
    const { club, challenge, rows } = await seedBoardOfTies([40, 25.5, 25.5, 10, 10, 10]);
    const positionOf = (entry: { id: string; reachedAt: string }) => ({ id: entry.id, reachedAt: boardTextToMicro(entry.reachedAt) });
    const modelPosition = (row: Participation) => ({ id: row.id, reachedAt: instant(row.micros) });
    let compared = 0;
    for (const board of [{ kind: 'global' }, { kind: 'club', clubId: club.clubId }] as Board[]) {
      for (const { userId } of rows) {
        const view = await boardPage(getSql(), { challengeId: challenge.id, viewerId: userId, board, limit: 1 });
        const own = view.find((row) => row.part === 'own');
        if (!own || own.ahead === null) continue;
        const ordered = modelView(rows, board, userId);
        const at = ordered.findIndex((row) => row.userId === userId);
        expect({
          userId,
          ahead: own.ahead,
          previous: view.filter((row) => row.part === 'previous').map(positionOf),
          next: view.filter((row) => row.part === 'next').map(positionOf),
        }).toEqual({
          userId,
          ahead: at,
          previous: ordered
            .slice(Math.max(0, at - 2), at)
            .reverse()
            .map(modelPosition),
          next: ordered.slice(at + 1, at + 3).map(modelPosition),
        });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
