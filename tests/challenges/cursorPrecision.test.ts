import { listChallenges } from '../../shared/challenges/challengeRepository';
import { challengeListCursor, leaderboardCursor } from '../../shared/challenges/cursors';
import { leaderboard } from '../../shared/challenges/leaderboard';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { makeChallenge, unique } from './support';

/**
 * Keyset positions hold PostgreSQL's microseconds; a page after one must neither repeat nor skip
 * a row whose instant differs from the position's only below the millisecond.
 */
describe('keyset paging at microsecond precision', () => {
  it('pages a board whose scores were reached within one millisecond without repeating a row', async () => {
    const challenge = await makeChallenge();
    const users = ['a', 'b', 'c'].map((name) => unique(name));
    for (const [index, user] of users.entries()) {
      const participation = await joinChallenge(getSql(), user, challenge.id, {});
      await getSql()`
        update challenge_participation set score = 50, share_globally = true,
          score_reached_at = ${`2026-09-01T10:00:00.123${index + 1}00Z`}::text::timestamptz
        where id = ${participation.id}`;
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    const viewer = unique('viewer');
    do {
      const page: Awaited<ReturnType<typeof leaderboard>> = await leaderboard(getSql(), {
        challengeId: challenge.id,
        viewerId: viewer,
        board: { kind: 'global' },
        limit: 1,
        after: cursor ? leaderboardCursor.decode(cursor) : undefined,
      });
      seen.push(...page.items.map((row) => row.userId));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(users);
  });

  it('shows each row instant to the millisecond, on the page, on the own row and its neighbours', async () => {
    const challenge = await makeChallenge();
    const instants = ['2026-09-01T10:00:00.123456Z', '2026-09-01T10:00:01Z', '2026-09-01T10:00:02.5Z', '2026-09-01T10:00:03.000999Z'];
    const users = instants.map((_, index) => unique(`instant${index}`));
    for (const [index, user] of users.entries()) {
      const participation = await joinChallenge(getSql(), user, challenge.id, {});
      await getSql()`
        update challenge_participation set score = ${100 - index}, share_globally = true,
          score_reached_at = ${instants[index]!}::text::timestamptz
        where id = ${participation.id}`;
    }
    const shown = ['2026-09-01T10:00:00.123Z', '2026-09-01T10:00:01.000Z', '2026-09-01T10:00:02.500Z', '2026-09-01T10:00:03.000Z'];
    const firstPage = await leaderboard(getSql(), {
      challengeId: challenge.id,
      viewerId: unique('viewer'),
      board: { kind: 'global' },
      limit: 4,
    });
    expect(firstPage.items.map((row) => row.reachedAt)).toEqual(shown);
    // The last row's own view with a page of one: its own row and neighbours come off the page.
    const ownView = await leaderboard(getSql(), { challengeId: challenge.id, viewerId: users[3]!, board: { kind: 'global' }, limit: 1 });
    expect(ownView.me?.reachedAt).toBe(shown[3]);
    expect(ownView.around.map((row) => row.reachedAt)).toEqual([shown[1], shown[2], shown[3]]);
  });

  it('pages templates created within one millisecond without repeating or skipping one', async () => {
    const tag = unique('precision');
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const challenge = await makeChallenge({ title: `${tag} ${index}` });
      await getSql()`update challenge set created_at = ${`2026-09-01T10:00:00.456${index + 1}00Z`}::text::timestamptz where id = ${challenge.id}`;
      ids.unshift(challenge.id);
    }
    const user = unique('lister');
    const seen: string[] = [];
    let after: { createdAt: string; id: string } | undefined;
    for (let round = 0; round < 5; round += 1) {
      const page = await listChallenges(getSql(), user, { search: tag, limit: 1, after });
      seen.push(...page.items.map((item) => item.id));
      if (!page.nextCursor) break;
      const position = challengeListCursor.decode(page.nextCursor);
      after = position ? { createdAt: position[0], id: position[1] } : undefined;
    }
    expect(seen).toEqual(ids);
  });
});
