import { awardBadge } from '../../shared/challenges/badgeRepository';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { addMember, createClub, ensureBadge, hitsOn, insertHits, linkShooter, makeChallenge, unique } from './support';

/** The member's own challenge routes over HTTP: personalize for oneself, leave, ladders, badge preferences, another member's profile. */

interface Problem {
  status: number;
  code?: string;
  errors?: { path: string; message: string }[];
}

describe('member challenge routes', () => {
  const host = useTestHost();
  const call = async (user: string, method: string, path: string, json?: unknown) =>
    host.request(method, path, { headers: await bearer(user), json });

  describe('POST /api/challenges/personalize/me', () => {
    async function memberWithHistory(): Promise<string> {
      const club = await createClub();
      const user = unique('adaptive');
      await addMember(club.clubId, user);
      const shooter = await linkShooter(club, user);
      const today = new Date();
      today.setUTCHours(10, 0, 0, 0);
      // Four sessions in four weeks, 50 shots each: 50 shots a week.
      for (let session = 0; session < 4; session += 1) {
        const day = new Date(today.getTime() - (3 + session * 7) * 86_400_000);
        await insertHits(club.clubNumber, shooter, hitsOn(day, 50, 8.6));
      }
      return user;
    }

    it('generates the caller’s own goal 5 % above their average and regenerates it in place', async () => {
      const user = await memberWithHistory();
      const response = await call(user, 'POST', '/api/challenges/personalize/me', { metric: 'shots', lookbackDays: 28 });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        challenge: { id: string; personalizedForUserId: string; rewardXp: number };
        recommendation: unknown;
      };
      // 50 a week × 2 weeks × 1.05 = 105.
      expect(body.recommendation).toEqual({ metric: 'shots', average: 50, multiplier: 0.05, target: 105, lookbackDays: 28, sessions: 4 });
      expect(body.challenge).toMatchObject({ personalizedForUserId: user, rewardXp: 500 });

      const again = await call(user, 'POST', '/api/challenges/personalize/me', { metric: 'shots', lookbackDays: 28, difficulty: 'hard' });
      const regenerated = (await again.json()) as { challenge: { id: string }; recommendation: { target: number } };
      expect(regenerated.challenge.id).toBe(body.challenge.id);
      expect(regenerated.recommendation.target).toBe(110);
    });

    it('cannot name another member or choose the reward, and needs a history', async () => {
      const user = await memberWithHistory();
      const other = await memberWithHistory();
      const foreign = await call(user, 'POST', '/api/challenges/personalize/me', { metric: 'shots', userId: other });
      expect(foreign.status).toBe(400);
      expect(((await foreign.json()) as Problem).errors?.map((error) => error.path)).toContain('body.userId');
      const reward = await call(user, 'POST', '/api/challenges/personalize/me', { metric: 'shots', rewardXp: 650 });
      expect(((await reward.json()) as Problem).errors?.map((error) => error.path)).toContain('body.rewardXp');
      const [count] = await getSql()<{ n: number }[]>`
        select count(*)::int as n from challenge where personalized_for_user_id in (${user}, ${other})`;
      expect(count?.n).toBe(0);

      const newcomer = await call(unique('newcomer'), 'POST', '/api/challenges/personalize/me', { metric: 'sessions' });
      expect(newcomer.status).toBe(409);
      expect(await newcomer.json()).toMatchObject({ code: 'insufficient_history' });
      expect((await call(user, 'POST', '/api/challenges/personalize/me', { metric: 'hits' })).status).toBe(400);
    });
  });

  describe('POST /api/challenges/participations/{id}/leave', () => {
    it('cancels the caller’s own participation, is 404 for anyone else and 409 twice', async () => {
      const user = unique('leaver');
      const challenge = await makeChallenge();
      const joined = await call(user, 'POST', `/api/challenges/${challenge.id}/join`);
      const participation = (await joined.json()) as { id: string };

      const intruder = await call(unique('intruder'), 'POST', `/api/challenges/participations/${participation.id}/leave`);
      expect(intruder.status).toBe(404);
      expect(await intruder.json()).toMatchObject({ code: 'participation_not_found' });

      const left = await call(user, 'POST', `/api/challenges/participations/${participation.id}/leave`);
      expect(left.status).toBe(200);
      expect(await left.json()).toMatchObject({ id: participation.id, status: 'cancelled' });
      const list = await call(user, 'GET', `/api/challenges?status=cancelled&search=${encodeURIComponent(challenge.title)}`);
      expect(((await list.json()) as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([challenge.id]);

      const twice = await call(user, 'POST', `/api/challenges/participations/${participation.id}/leave`);
      expect(twice.status).toBe(409);
      expect(await twice.json()).toMatchObject({ code: 'not_active' });

      const rejoin = await call(user, 'POST', `/api/challenges/${challenge.id}/join`);
      expect(rejoin.status).toBe(201);
      expect(await rejoin.json()).toMatchObject({ id: participation.id, status: 'active' });
    });
  });

  describe('GET /api/challenges/ladder', () => {
    it('serves the club ladder to members with the opt-in of the boards, and refuses outsiders', async () => {
      const club = await createClub();
      const [sharer, quiet, outsider] = ['sharer', 'quiet', 'outsider'].map(unique) as [string, string, string];
      await addMember(club.clubId, sharer);
      await addMember(club.clubId, quiet);
      const sql = getSql();
      const [season] = await sql<{ id: string }[]>`
        insert into xp_season (name, starts_at, ends_at) values (${unique('Season')}, '2021-01-01', '2021-02-01') returning id`;
      await sql`insert into xp_season_total (season_id, user_id, xp) values (${season!.id}, ${sharer}, 300), (${season!.id}, ${quiet}, 900)`;
      expect(
        (await call(sharer, 'PUT', '/api/challenges/sharing-preferences', { shareWithinClub: true, shareGlobally: false })).status,
      ).toBe(200);

      const path = `/api/challenges/ladder?period=season&seasonId=${season!.id}&scope=club&clubId=${club.clubId}`;
      const forSharer = await call(sharer, 'GET', path);
      expect(forSharer.status).toBe(200);
      expect(await forSharer.json()).toMatchObject({
        period: 'season',
        board: 'club',
        clubId: club.clubId,
        items: [{ rank: 1, userId: sharer, xp: 300, tier: 'iron', isOwn: true, hiddenFromOthers: false }],
        me: { rank: 1 },
        nextCursor: null,
      });
      const forQuiet = (await (await call(quiet, 'GET', path)).json()) as { items: { userId: string; hiddenFromOthers: boolean }[] };
      expect(forQuiet.items.map((row) => [row.userId, row.hiddenFromOthers])).toEqual([
        [quiet, true],
        [sharer, false],
      ]);
      expect((await call(outsider, 'GET', path)).status).toBe(403);
    });

    it('names the bad parameter and an unknown season', async () => {
      const user = unique('ladder');
      for (const [query, field] of [
        ['period=weekly', 'query.period'],
        ['scope=world', 'query.scope'],
        ['limit=0', 'query.limit'],
        ['cursor=forged.cursor', 'query.cursor'],
      ] as const) {
        const response = await call(user, 'GET', `/api/challenges/ladder?${query}`);
        expect(response.status).toBe(400);
        expect(((await response.json()) as Problem).errors?.map((error) => error.path)).toContain(field);
      }
      const unknown = await call(user, 'GET', '/api/challenges/ladder?period=season&seasonId=no-such-season');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'season_not_found' });
    });
  });

  describe('badge preferences', () => {
    it('stores the caller’s choice and refuses anything but a boolean', async () => {
      const user = unique('badges');
      expect(await (await call(user, 'GET', '/api/challenges/badge-preferences')).json()).toEqual({ showPrivateBadges: false });
      expect((await call(user, 'PUT', '/api/challenges/badge-preferences', { showPrivateBadges: true })).status).toBe(200);
      expect(await (await call(user, 'GET', '/api/challenges/badge-preferences')).json()).toEqual({ showPrivateBadges: true });
      const bad = await call(user, 'PUT', '/api/challenges/badge-preferences', { showPrivateBadges: 'yes' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as Problem).errors?.map((error) => error.path)).toContain('body.showPrivateBadges');
      expect(await (await call(user, 'GET', '/api/challenges/badge-preferences')).json()).toEqual({ showPrivateBadges: true });
      const achievements = (await (await call(user, 'GET', '/api/challenges/achievements')).json()) as { showPrivateBadges: boolean };
      expect(achievements.showPrivateBadges).toBe(true);
    });

    it('answers an unknown user like one who shares nothing: no XP, no badges', async () => {
      const response = await call(unique('viewer'), 'GET', `/api/challenges/members/${encodeURIComponent(unique('someone'))}/badges`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ standing: null, badgeGroups: [] });
    });

    it('shows another member’s XP, tier and badges as far as they share them: hiding and sharing change what a club mate and an outsider see', async () => {
      const club = await createClub();
      const [owner, mate, outsider] = ['owner', 'mate', 'outsider'].map(unique) as [string, string, string];
      await addMember(club.clubId, owner);
      await addMember(club.clubId, mate);
      await addMember((await createClub()).clubId, outsider);
      const sql = getSql();
      await sql`insert into xp_total (user_id, lifetime_xp) values (${owner}, 1600)`;
      const badgeKey = unique('badge-private');
      await ensureBadge(badgeKey);
      // A badge earned in a challenge the owner shared with nobody.
      const challenge = await makeChallenge({ title: badgeKey });
      const participation = await joinChallenge(sql, owner, challenge.id, { clubId: club.clubId });
      await sql`update challenge_participation set status = 'completed', finished_at = now() where id = ${participation.id}`;
      await awardBadge(sql, { userId: owner, badgeKey, challengeId: challenge.id, participationId: participation.id });

      const seen = async (viewer: string) => {
        const response = await call(viewer, 'GET', `/api/challenges/members/${encodeURIComponent(owner)}/badges`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { standing: unknown; badgeGroups: { badges: { key: string }[] }[] };
        return { standing: body.standing, badges: body.badgeGroups.flatMap((group) => group.badges.map((badge) => badge.key)) };
      };
      const share = async (shareWithinClub: boolean, shareGlobally: boolean) =>
        expect((await call(owner, 'PUT', '/api/challenges/sharing-preferences', { shareWithinClub, shareGlobally })).status).toBe(200);
      const showPrivate = async (showPrivateBadges: boolean) =>
        expect((await call(owner, 'PUT', '/api/challenges/badge-preferences', { showPrivateBadges })).status).toBe(200);

      // Shares nothing: others see neither the XP nor the private badge; the owner sees all.
      expect(await seen(mate)).toEqual({ standing: null, badges: [] });
      expect(await seen(outsider)).toEqual({ standing: null, badges: [] });
      expect(await seen(owner)).toEqual({ standing: { xp: 1600, tier: 'silver' }, badges: [badgeKey] });

      // Within the club: the club mate sees XP and tier, the outsider still nothing.
      await share(true, false);
      expect((await seen(mate)).standing).toEqual({ xp: 1600, tier: 'silver' });
      expect((await seen(outsider)).standing).toBeNull();
      // Badges from private challenges shown: to club mates only.
      await showPrivate(true);
      expect((await seen(mate)).badges).toEqual([badgeKey]);
      expect((await seen(outsider)).badges).toEqual([]);
      await showPrivate(false);
      expect((await seen(mate)).badges).toEqual([]);

      // Globally: the outsider sees XP and tier too, but never the private badge.
      await share(false, true);
      expect(await seen(outsider)).toEqual({ standing: { xp: 1600, tier: 'silver' }, badges: [] });
      await share(false, false);
      expect((await seen(outsider)).standing).toBeNull();
      expect((await seen(mate)).standing).toBeNull();
    });
  });
});
