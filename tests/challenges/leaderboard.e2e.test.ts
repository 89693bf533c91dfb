import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { addMember, createClub, makeChallenge, unique } from './support';

interface Row {
  rank: number;
  userId: string;
  score: number;
  isOwn: boolean;
  hiddenFromOthers: boolean;
}
interface Page {
  board: string;
  clubId: string | null;
  items: Row[];
  nextCursor: string | null;
  me: Row | null;
  around: Row[];
  challenge: { title: string; metric: string; endsAt: string | null };
}

const base = new Date('2026-09-01T10:00:00Z');

/** A participation with a score reached at base + `minute` minutes and the given sharing flags. */
async function place(
  challengeId: string,
  userId: string,
  score: number,
  minute: number,
  share: { club?: boolean; global?: boolean },
  clubId?: string,
) {
  const participation = await joinChallenge(getSql(), userId, challengeId, { clubId }, base);
  await getSql()`
    update challenge_participation set score = ${score}, score_reached_at = ${new Date(base.getTime() + minute * 60_000)},
      share_within_club = ${share.club ?? false}, share_globally = ${share.global ?? false}
    where id = ${participation.id}`;
  return participation.id;
}

describe('challenge leaderboards over HTTP', () => {
  const host = useTestHost();

  async function board(viewer: string, challengeId: string, query: string): Promise<Page> {
    const response = await host.request('GET', `/api/challenges/${challengeId}/leaderboard?${query}`, { headers: await bearer(viewer) });
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }
  const ranks = (page: Page) => page.items.map((row) => [row.rank, row.userId, row.score]);

  it('shows each viewer the visibility matrix: shared rows to others, own row always, no gaps from hidden rows', async () => {
    const club = await createClub();
    const otherClub = await createClub();
    const [globalSharer, clubSharer, privateOne, outsider] = ['global', 'club', 'private', 'outsider'].map((name) => unique(name));
    for (const user of [globalSharer!, clubSharer!, privateOne!]) await addMember(club.clubId, user);
    await addMember(otherClub.clubId, outsider!);
    const challenge = await makeChallenge();
    // The private one leads, the club sharer is second, the global sharer third.
    await place(challenge.id, privateOne!, 90, 1, {});
    await place(challenge.id, clubSharer!, 80, 1, { club: true });
    await place(challenge.id, globalSharer!, 70, 1, { global: true });
    await place(challenge.id, outsider!, 60, 1, { global: true, club: true });

    // Global board: only shareGlobally rows, ranked without the hidden ones.
    const globalForOutsider = await board(outsider!, challenge.id, 'scope=global');
    expect(ranks(globalForOutsider)).toEqual([
      [1, globalSharer, 70],
      [2, outsider, 60],
    ]);
    expect(globalForOutsider.me).toMatchObject({ rank: 2, isOwn: true, hiddenFromOthers: false });
    // The board names what it ranks: the challenge, the unit of its score and its end.
    expect(globalForOutsider.challenge).toEqual({
      title: challenge.title,
      metric: challenge.rulesJson.goal.metric,
      endsAt: challenge.endsAt,
    });
    const globalForClubSharer = await board(clubSharer!, challenge.id, 'scope=global');
    expect(ranks(globalForClubSharer)).toEqual([
      [1, clubSharer, 80],
      [2, globalSharer, 70],
      [3, outsider, 60],
    ]);
    expect(globalForClubSharer.me).toMatchObject({ userId: clubSharer, rank: 1, hiddenFromOthers: true });
    const globalForPrivate = await board(privateOne!, challenge.id, 'scope=global');
    expect(ranks(globalForPrivate)).toEqual([
      [1, privateOne, 90],
      [2, globalSharer, 70],
      [3, outsider, 60],
    ]);

    // Club board: rows of that club shared within the club or globally; the outsider's club is another board.
    const clubForGlobalSharer = await board(globalSharer!, challenge.id, `scope=club&clubId=${club.clubId}`);
    expect(clubForGlobalSharer).toMatchObject({ board: 'club', clubId: club.clubId });
    expect(ranks(clubForGlobalSharer)).toEqual([
      [1, clubSharer, 80],
      [2, globalSharer, 70],
    ]);
    const clubForPrivate = await board(privateOne!, challenge.id, 'scope=club');
    expect(ranks(clubForPrivate)).toEqual([
      [1, privateOne, 90],
      [2, clubSharer, 80],
      [3, globalSharer, 70],
    ]);
    expect(clubForPrivate.me).toMatchObject({ rank: 1, hiddenFromOthers: true });

    // Club boards are for the club's members.
    const denied = await host.request('GET', `/api/challenges/${challenge.id}/leaderboard?scope=club&clubId=${club.clubId}`, {
      headers: await bearer(outsider!),
    });
    expect(denied.status).toBe(403);
    const admin = await host.request('GET', `/api/challenges/${challenge.id}/leaderboard?scope=club&clubId=${club.clubId}`, {
      headers: await bearer(unique('admin'), { roles: ['platform_admin'] }),
    });
    expect(ranks((await admin.json()) as Page)).toEqual([
      [1, clubSharer, 80],
      [2, globalSharer, 70],
    ]);
  });

  it('ties go to who reached the score first; pages continue the ranks; own row beyond the page comes with its neighbours', async () => {
    const challenge = await makeChallenge();
    const users = Array.from({ length: 12 }, (_, index) => `tie-${index.toString().padStart(2, '0')}-${unique('u')}`);
    // Scores 100, 100, 90, 90, ... reached in reverse order of index within a pair.
    for (const [index, user] of users.entries()) {
      await place(challenge.id, user, 100 - Math.floor(index / 2) * 10, 100 - index, { global: true });
    }
    const hiddenLate = unique('hidden');
    await place(challenge.id, hiddenLate, 5, 0, {});
    const viewer = users[8]!;

    const first = await board(viewer, challenge.id, 'scope=global&limit=4');
    expect(ranks(first)).toEqual([
      [1, users[1], 100],
      [2, users[0], 100],
      [3, users[3], 90],
      [4, users[2], 90],
    ]);
    expect(first.me).toMatchObject({ userId: viewer, rank: 10, score: 60 });
    expect(first.around.map((row) => [row.rank, row.userId])).toEqual([
      [8, users[6]],
      [9, users[9]],
      [10, viewer],
      [11, users[11]],
      [12, users[10]],
    ]);
    // A cursor edited by hand to a far-off rank is refused, not served from rank 4,000,001: as
    // issued it may not be changed, and without its tag it is not a cursor at all.
    const [payload = '', tag = ''] = String(first.nextCursor).split('.');
    const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    const farOff = Buffer.from(JSON.stringify([...position.slice(0, 3), 4_000_000]), 'utf8').toString('base64url');
    for (const forged of [farOff, `${farOff}.${tag}`]) {
      const refused = await host.request('GET', `/api/challenges/${challenge.id}/leaderboard?scope=global&limit=4&cursor=${forged}`, {
        headers: await bearer(viewer),
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(['query.cursor']);
    }
    const second = await board(viewer, challenge.id, `scope=global&limit=4&cursor=${first.nextCursor}`);
    expect(second.items.map((row) => row.rank)).toEqual([5, 6, 7, 8]);
    const third = await board(viewer, challenge.id, `scope=global&limit=4&cursor=${second.nextCursor}`);
    expect(ranks(third)).toEqual([
      [9, users[9], 60],
      [10, viewer, 60],
      [11, users[11], 50],
      [12, users[10], 50],
    ]);
    expect(third.me).toMatchObject({ rank: 10, isOwn: true });
    expect(third.nextCursor).toBeNull();
    expect(third.around).toEqual([]);

    // A leader paging on sees their row from an earlier page with its rank and neighbours.
    const leaderSecond = await board(users[1]!, challenge.id, `scope=global&limit=4&cursor=${first.nextCursor}`);
    expect(leaderSecond.items.map((row) => row.rank)).toEqual([5, 6, 7, 8]);
    expect(leaderSecond.me).toMatchObject({ userId: users[1], rank: 1 });
    expect(leaderSecond.around.map((row) => [row.rank, row.userId])).toEqual([
      [1, users[1]],
      [2, users[0]],
      [3, users[3]],
    ]);

    // The hidden participant sees themselves last, with a rank that counts only what they can see.
    const hiddenView = await board(hiddenLate, challenge.id, 'scope=global&limit=2');
    expect(hiddenView.me).toMatchObject({ userId: hiddenLate, rank: 13, hiddenFromOthers: true });
    expect(hiddenView.around.map((row) => row.rank)).toEqual([11, 12, 13]);
  });

  it('rejects a forged cursor and an unknown scope with 400, an unknown or invisible challenge with 404, no token with 401', async () => {
    const challenge = await makeChallenge();
    const user = unique('user');
    for (const query of ['scope=everyone', 'cursor=not-a-cursor', 'limit=0', 'limit=101']) {
      const response = await host.request('GET', `/api/challenges/${challenge.id}/leaderboard?${query}`, { headers: await bearer(user) });
      expect(response.status).toBe(400);
    }
    expect((await host.request('GET', `/api/challenges/nope/leaderboard`, { headers: await bearer(user) })).status).toBe(404);
    const club = await createClub();
    const clubOnly = await makeChallenge({ scope: 'club', clubId: club.clubId });
    expect((await host.request('GET', `/api/challenges/${clubOnly.id}/leaderboard`, { headers: await bearer(user) })).status).toBe(404);
    expect((await host.request('GET', `/api/challenges/${challenge.id}/leaderboard`)).status).toBe(401);
  });

  it('keeps the global board’s rank apart from a club whose id is literally global', async () => {
    await getSql()`insert into club (id, name) values ('global', 'A club named global') on conflict (id) do nothing`;
    const [leaderUser, viewer, clubOnly] = ['lead', 'viewer', 'clubonly'].map((name) => unique(name));
    await addMember('global', clubOnly!);
    const challenge = await makeChallenge();
    await place(challenge.id, leaderUser!, 90, 1, { global: true });
    await place(challenge.id, clubOnly!, 80, 1, { club: true }, 'global');
    await place(challenge.id, viewer!, 50, 1, { global: true });

    // limit=1 keeps the viewer off the page, so the rank comes from the per-score counts.
    const page = await board(viewer!, challenge.id, 'scope=global&limit=1');
    expect(ranks(page)).toEqual([[1, leaderUser, 90]]);
    expect(page.me).toMatchObject({ rank: 2, userId: viewer });
    expect(page.around.map((row) => [row.rank, row.userId])).toEqual([
      [1, leaderUser],
      [2, viewer],
    ]);
  });
});
