import { functionDefinitions } from '../../functions/definitions';
import { generateServiceToken, hashServiceToken } from '../../shared/challenges/serviceCredential';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { addMember, createClub, ensureBadge, hitsOn, insertHits, linkShooter, makeChallenge, unique } from './support';
import { inlineSchemaRefs, type JsonSchema } from '../support/openApiDocument';
import type { ProblemJson } from '../support/http';

const serviceToken = generateServiceToken();
const rotatedOut = generateServiceToken();

const admin = () => bearer(unique('admin'), { roles: ['platform_admin'] });

const validBody = (overrides: Record<string, unknown> = {}) => ({
  scope: 'club',
  title: 'Autumn series',
  difficulty: 'medium',
  durationDays: 30,
  rewardXp: 600,
  rulesJson: { goal: { metric: 'shots', target: 200 } },
  ...overrides,
});

describe('challenge endpoints', () => {
  let restoreSettings: () => void;
  beforeAll(() => {
    restoreSettings = overrideSettings({
      CHALLENGE_SERVICE_TOKEN_HASH: `${hashServiceToken(serviceToken)},${hashServiceToken(generateServiceToken())}`,
    });
  });
  afterAll(() => restoreSettings());
  const host = useTestHost();

  const call = async (user: string | Record<string, string>, method: string, path: string, json?: unknown) =>
    host.request(method, path, { headers: typeof user === 'string' ? await bearer(user) : user, json });

  describe('POST /api/challenges', () => {
    it('lets a platform admin create any scope and a leader only their own club’s', async () => {
      const club = await createClub();
      const otherClub = await createClub();
      const leader = unique('leader');
      const member = unique('member');
      await addMember(club.clubId, leader, 'leader');
      await addMember(club.clubId, member);
      await addMember(otherClub.clubId, member, 'leader');

      const byLeader = await call(leader, 'POST', '/api/challenges', validBody({ clubId: club.clubId }));
      expect(byLeader.status).toBe(201);
      expect(await byLeader.json()).toMatchObject({
        scope: 'club',
        clubId: club.clubId,
        rewardXp: 600,
        defaultVisibility: 'private',
        priceCents: null,
      });

      // A member of the club (who leads another club) may not.
      const byMember = await call(member, 'POST', '/api/challenges', validBody({ clubId: club.clubId }));
      expect(byMember.status).toBe(403);
      // A leader may not create global challenges.
      expect((await call(leader, 'POST', '/api/challenges', validBody({ scope: 'global' }))).status).toBe(403);
      expect((await call(unique('nobody'), 'POST', '/api/challenges', validBody({ clubId: club.clubId }))).status).toBe(403);

      const byAdmin = await call(
        await admin(),
        'POST',
        '/api/challenges',
        validBody({ scope: 'global', lowerLevel: 'bronze', upperLevel: 'gold', priceCents: 499 }),
      );
      expect(byAdmin.status).toBe(201);
      expect(await byAdmin.json()).toMatchObject({
        scope: 'global',
        clubId: null,
        lowerLevel: 'bronze',
        upperLevel: 'gold',
        priceCents: 499,
      });
      expect((await call(await admin(), 'POST', '/api/challenges', validBody({ clubId: otherClub.clubId }))).status).toBe(201);
      expect((await host.request('POST', '/api/challenges', { json: validBody() })).status).toBe(401);
    });

    it('names every invalid field and changes nothing', async () => {
      const adminId = unique('admin');
      const asAdmin = await bearer(adminId, { roles: ['platform_admin'] });
      const cases: [Record<string, unknown>, string][] = [
        [validBody({ scope: 'global', title: 'Gold\u200bCup' }), 'body.title'],
        [validBody({ scope: 'global', title: '\u202eevil' }), 'body.title'],
        [validBody({ scope: 'global', rulesJson: { goal: { metric: 'shots', target: -1 } } }), 'body.rulesJson.goal.target'],
        [
          validBody({ scope: 'global', rulesJson: { goal: { metric: 'shots', target: 5 }, rewardBadge: 'no-such-badge' } }),
          'body.rulesJson.rewardBadge',
        ],
        [validBody({ scope: 'club' }), 'body.clubId'],
        [validBody({ scope: 'global', clubId: 'x' }), 'body.clubId'],
        [validBody({ scope: 'global', lowerLevel: 'gold', upperLevel: 'iron' }), 'body.upperLevel'],
        [validBody({ scope: 'global', difficulty: 'insane' }), 'body.difficulty'],
        [
          validBody({ scope: 'global', rulesJson: { goal: { metric: 'shots', target: 5 }, knockout: { finalists: 2, finalistXp: 100 } } }),
          'body.rulesJson.knockout',
        ],
      ];
      for (const [body, path] of cases) {
        const response = await call(asAdmin, 'POST', '/api/challenges', body);
        expect(response.status).toBe(400);
        const problem = (await response.json()) as ProblemJson;
        expect(problem.errors?.map((error) => error.path)).toContain(path);
      }
      const created = await getSql()`select 1 from challenge where created_by = ${adminId}`;
      expect(created).toHaveLength(0);
      expect((await call(asAdmin, 'POST', '/api/challenges', validBody({ scope: 'global' }))).status).toBe(201);
      expect(await getSql()`select 1 from challenge where created_by = ${adminId}`).toHaveLength(1);
    });

    it('a knockout pays finalists less than the winner', async () => {
      const club = await createClub();
      const response = await call(
        await admin(),
        'POST',
        '/api/challenges',
        validBody({
          clubId: club.clubId,
          endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          rewardXp: 500,
          rulesJson: { goal: { metric: 'bestSeries', target: 100 }, knockout: { finalists: 2, finalistXp: 500 } },
        }),
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as ProblemJson).errors).toEqual([
        { path: 'body.rulesJson.knockout.finalistXp', message: 'must be less than rewardXp' },
      ]);
    });
  });

  describe('GET /api/challenges', () => {
    it('lists global, the caller’s clubs’ and their personal templates with filters, search and pages', async () => {
      const club = await createClub();
      const foreignClub = await createClub();
      const user = unique('lister');
      await addMember(club.clubId, user);
      const tag = unique('zq');
      const globalOne = await makeChallenge({ title: `${tag} global`, difficulty: 'easy' });
      const clubOne = await makeChallenge({ title: `${tag} club`, scope: 'club', clubId: club.clubId, difficulty: 'hard' });
      const mine = await makeChallenge({ title: `${tag} mine`, scope: 'personal', personalizedForUserId: user });
      await makeChallenge({ title: `${tag} foreign`, scope: 'club', clubId: foreignClub.clubId });
      await makeChallenge({ title: `${tag} someone else`, scope: 'personal', personalizedForUserId: unique('else') });

      const list = async (query: string) => {
        const response = await call(user, 'GET', `/api/challenges?search=${encodeURIComponent(tag)}&${query}`);
        expect(response.status).toBe(200);
        return (await response.json()) as {
          items: { id: string; scope: string; participation: unknown; teamProgress: unknown }[];
          nextCursor: string | null;
        };
      };
      expect((await list('')).items.map((item) => item.id)).toEqual([mine.id, clubOne.id, globalOne.id]);
      expect((await list('difficulty=hard')).items.map((item) => item.id)).toEqual([clubOne.id]);
      expect((await list('scope=personal')).items.map((item) => item.id)).toEqual([mine.id]);

      const firstPage = await list('limit=2');
      expect(firstPage.items.map((item) => item.id)).toEqual([mine.id, clubOne.id]);
      const secondPage = await list(`limit=2&cursor=${firstPage.nextCursor}`);
      expect(secondPage).toMatchObject({ items: [{ id: globalOne.id }], nextCursor: null });

      expect((await call(user, 'POST', `/api/challenges/${globalOne.id}/join`)).status).toBe(201);
      expect((await list('status=active')).items.map((item) => item.id)).toEqual([globalOne.id]);
      expect((await list('status=available')).items.map((item) => item.id)).toEqual([mine.id, clubOne.id]);
      expect((await list('status=completed')).items).toEqual([]);
      // LIKE wildcards in a search match only themselves.
      const literal = await call(user, 'GET', `/api/challenges?search=${encodeURIComponent(`${tag}_%`)}`);
      expect(((await literal.json()) as { items: unknown[] }).items).toEqual([]);
      for (const query of ['status=won', 'difficulty=x', 'limit=500', 'cursor=zzz', 'scope=team']) {
        expect((await call(user, 'GET', `/api/challenges?${query}`)).status).toBe(400);
      }
    });

    it('team cards add up the club participants who share, plus the caller', async () => {
      const club = await createClub();
      const [caller, sharer, hidden] = [unique('a'), unique('b'), unique('c')];
      for (const user of [caller, sharer, hidden]) await addMember(club.clubId, user);
      const team = await makeChallenge({ title: unique('team'), scope: 'club', clubId: club.clubId });
      for (const [user, score, share] of [
        [caller, 10, false],
        [sharer, 20, true],
        [hidden, 40, false],
      ] as const) {
        const response = await call(user, 'POST', `/api/challenges/${team.id}/join`);
        const participation = (await response.json()) as { id: string };
        await getSql()`update challenge_participation set score = ${score}, share_within_club = ${share} where id = ${participation.id}`;
      }
      const response = await call(caller, 'GET', `/api/challenges?scope=club&search=${encodeURIComponent(team.title)}`);
      const page = (await response.json()) as { items: { teamProgress: unknown }[] };
      expect(page.items[0]?.teamProgress).toEqual({ aggregate: 'sum', value: 30, participants: 2, completed: 0 });
    });
  });

  describe('join and visibility', () => {
    it('join copies the sharing preferences; without any both flags are off', async () => {
      const challenge = await makeChallenge();
      const fresh = unique('fresh');
      const joined = await call(fresh, 'POST', `/api/challenges/${challenge.id}/join`);
      expect(joined.status).toBe(201);
      expect(await joined.json()).toMatchObject({
        status: 'active',
        shareWithinClub: false,
        shareGlobally: false,
        progress: null,
        result: null,
      });

      const sharer = unique('sharer');
      expect(await (await call(sharer, 'GET', '/api/challenges/sharing-preferences')).json()).toEqual({
        shareWithinClub: false,
        shareGlobally: false,
      });
      const put = await call(sharer, 'PUT', '/api/challenges/sharing-preferences', { shareWithinClub: true, shareGlobally: false });
      expect(put.status).toBe(200);
      expect(await (await call(sharer, 'POST', `/api/challenges/${challenge.id}/join`)).json()).toMatchObject({
        shareWithinClub: true,
        shareGlobally: false,
      });
      await call(sharer, 'PUT', '/api/challenges/sharing-preferences', { shareWithinClub: false, shareGlobally: true });
      const second = await makeChallenge();
      expect(await (await call(sharer, 'POST', `/api/challenges/${second.id}/join`)).json()).toMatchObject({
        shareWithinClub: false,
        shareGlobally: true,
      });

      const again = await call(sharer, 'POST', `/api/challenges/${challenge.id}/join`);
      expect(again.status).toBe(409);
      expect(((await again.json()) as ProblemJson).code).toBe('already_joined');
      expect((await call(sharer, 'PUT', '/api/challenges/sharing-preferences', { shareWithinClub: 'yes' })).status).toBe(400);
    });

    it('join refuses templates the caller cannot see, levels out of bounds and clubs not theirs', async () => {
      const club = await createClub();
      const user = unique('joiner');
      const clubOnly = await makeChallenge({ scope: 'club', clubId: club.clubId });
      expect((await call(user, 'POST', `/api/challenges/${clubOnly.id}/join`)).status).toBe(404);
      const forGold = await makeChallenge({ lowerLevel: 'gold' });
      const tooLow = await call(user, 'POST', `/api/challenges/${forGold.id}/join`);
      expect(tooLow.status).toBe(409);
      expect(((await tooLow.json()) as ProblemJson).code).toBe('level_out_of_bounds');
      const open = await makeChallenge();
      const notMine = await call(user, 'POST', `/api/challenges/${open.id}/join?clubId=${club.clubId}`);
      expect(notMine.status).toBe(400);
      expect(((await notMine.json()) as ProblemJson).errors).toEqual([{ path: 'query.clubId', message: 'must be one of your clubs' }]);
      await addMember(club.clubId, user);
      expect(await (await call(user, 'POST', `/api/challenges/${open.id}/join?clubId=${club.clubId}`)).json()).toMatchObject({
        clubId: club.clubId,
      });
    });

    it('only the owner changes a participation’s visibility', async () => {
      const challenge = await makeChallenge();
      const owner = unique('owner');
      const participation = (await (await call(owner, 'POST', `/api/challenges/${challenge.id}/join`)).json()) as { id: string };
      const path = `/api/challenges/participations/${participation.id}/visibility`;
      const other = await call(unique('other'), 'PATCH', path, { shareGlobally: true });
      expect(other.status).toBe(404);
      const adminTry = await call(await admin(), 'PATCH', path, { shareGlobally: true });
      expect(adminTry.status).toBe(404);
      const changed = await call(owner, 'PATCH', path, { shareGlobally: true });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toMatchObject({ id: participation.id, shareGlobally: true, shareWithinClub: false });
      expect(await (await call(owner, 'PATCH', path, { shareWithinClub: true })).json()).toMatchObject({
        shareGlobally: true,
        shareWithinClub: true,
      });
      expect((await call(owner, 'PATCH', path, {})).status).toBe(400);
      expect((await call(owner, 'PATCH', path, { shareGlobally: 1 })).status).toBe(400);
      expect((await host.request('PATCH', path, { json: { shareGlobally: false } })).status).toBe(401);
    });
  });

  describe('GET /api/challenges/achievements', () => {
    it('shows XP, tier, badges by quality and recent completions; another user’s only to platform admins', async () => {
      const club = await createClub();
      const user = unique('achiever');
      await addMember(club.clubId, user);
      const shooter = await linkShooter(club, user);
      await insertHits(club.clubNumber, shooter, hitsOn(new Date(Date.now() - 60_000), 5, 9));
      await ensureBadge('ach-gold', 'gold');
      await ensureBadge('ach-iron', 'iron');
      const gold = await makeChallenge({
        title: 'Gold one',
        rewardXp: 900,
        rules: { goal: { metric: 'shots', target: 1 }, rewardBadge: 'ach-gold' },
      });
      const iron = await makeChallenge({
        title: 'Iron one',
        rewardXp: 700,
        rules: { goal: { metric: 'shots', target: 1 }, rewardBadge: 'ach-iron' },
      });
      const joinedAt = new Date(Date.now() - 3_600_000);
      const { joinChallenge } = await import('../../shared/challenges/participationRepository');
      const { evaluateParticipation } = await import('../../shared/challenges/progress');
      const first = await joinChallenge(getSql(), user, gold.id, {}, joinedAt);
      const second = await joinChallenge(getSql(), user, iron.id, {}, joinedAt);
      await getSql()`update challenge_participation set share_globally = true where id = ${second.id}`;
      expect(await evaluateParticipation(getSql(), first.id)).toBe('completed');
      expect(await evaluateParticipation(getSql(), second.id)).toBe('completed');

      const response = await call(user, 'GET', '/api/challenges/achievements');
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        userId: user,
        xp: 1600,
        tier: 'silver',
        nextTier: 'gold',
        nextTierAt: 3500,
        xpToNextTier: 1900,
        progressToNextTier: 0.05,
      });
      expect(body['badgeGroups']).toEqual([
        { quality: 'gold', badges: [expect.objectContaining({ key: 'ach-gold', challengeId: gold.id, fromPrivateChallenge: true })] },
        { quality: 'iron', badges: [expect.objectContaining({ key: 'ach-iron', challengeId: iron.id, fromPrivateChallenge: false })] },
      ]);
      const completions = body['recentCompletions'] as { challengeId: string; leaderboards: { global: string; club: string | null } }[];
      expect(completions.map((completion) => completion.challengeId).sort()).toEqual([gold.id, iron.id].sort());
      expect(completions[0]?.leaderboards.global).toMatch(/^\/api\/challenges\/.+\/leaderboard\?scope=global$/);
      expect(completions[0]?.leaderboards.club).toContain(`clubId=${club.clubId}`);

      expect((await call(unique('nosy'), 'GET', `/api/challenges/achievements?userId=${user}`)).status).toBe(403);
      const asAdmin = await call(await admin(), 'GET', `/api/challenges/achievements?userId=${user}`);
      expect(await asAdmin.json()).toMatchObject({ userId: user, xp: 1600 });
      expect(await (await call(unique('newbie'), 'GET', '/api/challenges/achievements')).json()).toMatchObject({
        xp: 0,
        tier: 'iron',
        badgeGroups: [],
        recentCompletions: [],
      });
    });
  });

  describe('POST /api/challenges/personalize', () => {
    async function userWithHistory(user = unique('adaptive')): Promise<string> {
      const club = await createClub();
      const shooter = await linkShooter(club, user);
      // Four sessions in the last four weeks, 50 shots each at 8.6 rings, in series of ten. Each
      // session starts at 10:00 UTC so its series never cross midnight in Europe/Berlin (a
      // session is one Berlin calendar day), whatever the time the test runs.
      const today = new Date();
      today.setUTCHours(10, 0, 0, 0);
      for (let session = 0; session < 4; session += 1) {
        const day = new Date(today.getTime() - (3 + session * 7) * 86_400_000);
        for (let series = 1; series <= 5; series += 1)
          await insertHits(club.clubNumber, shooter, hitsOn(new Date(day.getTime() + series * 600_000), 10, 8.6, series));
      }
      return user;
    }
    const service = { authorization: `Bearer ${serviceToken}` };

    it('generates average × (1 + multiplier) and regenerates the same template', async () => {
      const user = await userWithHistory();
      const response = await call(service, 'POST', '/api/challenges/personalize', {
        userId: user,
        metric: 'shots',
        lookbackDays: 28,
        durationDays: 14,
        difficulty: 'medium',
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        challenge: { id: string; scope: string; personalizedForUserId: string; rulesJson: { goal: unknown } };
        recommendation: unknown;
      };
      // 200 shots in 4 weeks = 50 a week; 2 weeks × 50 × 1.05 = 105.
      expect(body.recommendation).toEqual({ metric: 'shots', average: 50, multiplier: 0.05, target: 105, lookbackDays: 28, sessions: 4 });
      expect(body.challenge).toMatchObject({
        scope: 'personal',
        personalizedForUserId: user,
        rulesJson: { goal: { metric: 'shots', target: 105 } },
      });

      const harder = await call(service, 'POST', '/api/challenges/personalize', {
        userId: user,
        metric: 'shots',
        lookbackDays: 28,
        durationDays: 14,
        difficulty: 'expert',
      });
      const regenerated = (await harder.json()) as typeof body;
      expect(regenerated.challenge.id).toBe(body.challenge.id);
      expect(regenerated.recommendation).toMatchObject({ target: 115, multiplier: 0.15 });

      const ring = await call(service, 'POST', '/api/challenges/personalize', { userId: user, metric: 'averageRing', lookbackDays: 28 });
      expect(((await ring.json()) as typeof body).recommendation).toMatchObject({ average: 8.6, target: 9 });
      const series = await call(service, 'POST', '/api/challenges/personalize', {
        userId: user,
        metric: 'bestSeries',
        lookbackDays: 28,
        difficulty: 'hard',
      });
      expect(((await series.json()) as typeof body).recommendation).toMatchObject({ average: 86, target: 94.6 });
    });

    it('answers 409 insufficient_history without enough sessions', async () => {
      const response = await call(service, 'POST', '/api/challenges/personalize', { userId: unique('new'), metric: 'sessions' });
      expect(response.status).toBe(409);
      expect(((await response.json()) as ProblemJson).code).toBe('insufficient_history');
    });

    it('refuses a userId that is not well-formed Unicode: stored, it would name another user', async () => {
      // PostgreSQL stores a lone surrogate as U+FFFD: `x\ud800` would become the id of this user.
      const other = await userWithHistory(`${unique('adaptive')}\ufffd`);
      const response = await call(service, 'POST', '/api/challenges/personalize', {
        userId: other.replace('\ufffd', '\ud800'),
        metric: 'shots',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ProblemJson).errors).toEqual([
        { path: 'body.userId', message: 'must be well-formed Unicode (no lone surrogates)' },
      ]);
      expect(await getSql()`select id from challenge where personalized_for_user_id = ${other}`).toEqual([]);
    });

    it('accepts only the service credential', async () => {
      const body = { userId: unique('x'), metric: 'shots' };
      expect((await host.request('POST', '/api/challenges/personalize', { json: body })).status).toBe(401);
      expect((await call(await admin(), 'POST', '/api/challenges/personalize', body)).status).toBe(401);
      expect((await call({ authorization: `Bearer ${rotatedOut}` }, 'POST', '/api/challenges/personalize', body)).status).toBe(401);
      expect((await call({ authorization: `Bearer ${serviceToken}x` }, 'POST', '/api/challenges/personalize', body)).status).toBe(401);
      expect((await call(service, 'POST', '/api/challenges/personalize', { ...body, metric: 'laps' })).status).toBe(400);
      expect((await call(service, 'GET', '/api/challenges/achievements')).status).toBe(401);
    });
  });

  describe('shooter links', () => {
    it('a member claims, a leader of that club confirms, progress then counts the shots', async () => {
      const club = await createClub();
      const member = unique('member');
      const leader = unique('leader');
      const otherLeader = unique('leader');
      await addMember(club.clubId, member);
      await addMember(club.clubId, leader, 'leader');
      const otherClub = await createClub();
      await addMember(otherClub.clubId, otherLeader, 'leader');
      const shooterId = unique('s');
      await getSql()`insert into club_data_shooter (source_club_id, source_record_id, display_name) values (${club.clubNumber}, ${shooterId}, 'Anna Example')`;

      expect((await call(unique('stranger'), 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId })).status).toBe(
        403,
      );
      const missing = await call(member, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId: 'nope' });
      expect(missing.status).toBe(404);
      const claim = await call(member, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId });
      expect(claim.status).toBe(201);
      const link = (await claim.json()) as { id: string };
      expect(link).toMatchObject({ status: 'pending', shooterName: 'Anna Example', userId: member });
      expect((await call(member, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId })).status).toBe(409);

      expect((await call(member, 'GET', `/api/challenges/clubs/${club.clubId}/shooter-links`)).status).toBe(403);
      expect((await call(otherLeader, 'POST', `/api/challenges/clubs/${club.clubId}/shooter-links/${link.id}/confirm`)).status).toBe(403);
      // The leader decides about a person: the claimant's name and initials come with the claim.
      await getSql()`insert into person_profile (user_id, display_name) values (${member}, 'Anna Schütz')
        on conflict (user_id) do update set display_name = excluded.display_name`;
      const pending = (await (await call(leader, 'GET', `/api/challenges/clubs/${club.clubId}/shooter-links`)).json()) as {
        items: { id: string; displayName: string | null; initials: string | null }[];
      };
      expect(pending.items.map((item) => [item.id, item.displayName, item.initials])).toEqual([[link.id, 'Anna Schütz', 'AS']]);
      const confirmed = await call(leader, 'POST', `/api/challenges/clubs/${club.clubId}/shooter-links/${link.id}/confirm`);
      expect(await confirmed.json()).toMatchObject({ status: 'confirmed' });
      expect((await call(leader, 'POST', `/api/challenges/clubs/${club.clubId}/shooter-links/${link.id}/reject`)).status).toBe(404);

      const rival = unique('rival');
      await addMember(club.clubId, rival);
      const taken = await call(rival, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId });
      expect(taken.status).toBe(409);
      expect(((await taken.json()) as ProblemJson).code).toBe('shooter_taken');

      const own = (await (await call(member, 'GET', '/api/challenges/shooter-links')).json()) as { items: { status: string }[] };
      expect(own.items.map((item) => item.status)).toEqual(['confirmed']);

      const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 100 } } });
      const joined = (await (await call(member, 'POST', `/api/challenges/${challenge.id}/join`)).json()) as { id: string };
      await insertHits(club.clubNumber, shooterId, hitsOn(new Date(Date.now() + 1000), 7, 9));
      const { evaluateProgressForClubs } = await import('../../shared/challenges/progress');
      await evaluateProgressForClubs(getSql(), [club.clubNumber], new Date(Date.now() + 3_600_000));
      const listed = (await (await call(member, 'GET', `/api/challenges?search=${encodeURIComponent(challenge.title)}`)).json()) as {
        items: { participation: { id: string; progress: { value: number; fraction: number } } }[];
      };
      expect(listed.items[0]?.participation).toMatchObject({ id: joined.id, progress: { value: 7, fraction: 0.07 } });
    });
  });

  describe('shooter link decisions', () => {
    it('a leader cannot decide their own claim; another leader of the club or a platform admin can', async () => {
      const club = await createClub();
      const leader = unique('leader');
      const coLeader = unique('leader');
      await addMember(club.clubId, leader, 'leader');
      await addMember(club.clubId, coLeader, 'leader');
      const shooterIds = [unique('s'), unique('s')];
      for (const shooterId of shooterIds) {
        await getSql()`insert into club_data_shooter (source_club_id, source_record_id, display_name) values (${club.clubNumber}, ${shooterId}, 'Lee Leader')`;
      }
      const claim = (await (
        await call(leader, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId: shooterIds[0] })
      ).json()) as {
        id: string;
      };
      const decide = (caller: string | Record<string, string>, action: string) =>
        call(caller, 'POST', `/api/challenges/clubs/${club.clubId}/shooter-links/${claim.id}/${action}`);

      for (const action of ['confirm', 'reject']) {
        const own = await decide(leader, action);
        expect(own.status).toBe(403);
        expect(((await own.json()) as ProblemJson).code).toBe('own_claim');
      }
      const [stored] = await getSql()<{ status: string; decidedBy: string | null }[]>`
        select status, decided_by as "decidedBy" from challenge_shooter_link where id = ${claim.id}`;
      expect(stored).toEqual({ status: 'pending', decidedBy: null });

      const confirmed = await decide(coLeader, 'confirm');
      expect(confirmed.status).toBe(200);
      expect(await confirmed.json()).toMatchObject({ status: 'confirmed', userId: leader });

      // A platform admin decides too (after the first claim was rejected, the leader may claim again).
      await getSql()`update challenge_shooter_link set status = 'rejected' where id = ${claim.id}`;
      const second = (await (
        await call(leader, 'POST', '/api/challenges/shooter-links', { clubId: club.clubId, shooterId: shooterIds[1] })
      ).json()) as {
        id: string;
      };
      const byAdmin = await call(await admin(), 'POST', `/api/challenges/clubs/${club.clubId}/shooter-links/${second.id}/confirm`);
      expect(byAdmin.status).toBe(200);
      expect(await byAdmin.json()).toMatchObject({ status: 'confirmed', userId: leader });
    });
  });

  describe('rewardXp cap', () => {
    it('holds leaders to the preset range and platform admins to the hard bound, naming body.rewardXp', async () => {
      const club = await createClub();
      const leader = unique('leader');
      await addMember(club.clubId, leader, 'leader');
      const before = await getSql()<{ count: number }[]>`select count(*)::int as count from challenge where club_id = ${club.clubId}`;

      const tooRich = await call(leader, 'POST', '/api/challenges', validBody({ clubId: club.clubId, rewardXp: 100_000 }));
      expect(tooRich.status).toBe(400);
      expect(tooRich.headers.get('content-type')).toContain('application/problem+json');
      expect(((await tooRich.json()) as ProblemJson).errors).toEqual([{ path: 'body.rewardXp', message: 'must be at most 1000' }]);
      const after = await getSql()<{ count: number }[]>`select count(*)::int as count from challenge where club_id = ${club.clubId}`;
      expect(after).toEqual(before);

      expect((await call(leader, 'POST', '/api/challenges', validBody({ clubId: club.clubId, rewardXp: 1000 }))).status).toBe(201);
      expect((await call(await admin(), 'POST', '/api/challenges', validBody({ clubId: club.clubId, rewardXp: 100_000 }))).status).toBe(
        201,
      );
      const beyond = await call(await admin(), 'POST', '/api/challenges', validBody({ clubId: club.clubId, rewardXp: 100_001 }));
      expect(beyond.status).toBe(400);
      expect(((await beyond.json()) as ProblemJson).errors).toEqual([{ path: 'body.rewardXp', message: 'must be at most 100000' }]);
    });
  });

  it('seasons start only by platform admins', async () => {
    expect((await call(unique('member'), 'POST', '/api/challenges/seasons', { name: 'Winter' })).status).toBe(403);
    expect((await call(await admin(), 'POST', '/api/challenges/seasons', { name: '\u200b' })).status).toBe(400);
  });

  it('registers the progress sweep, the progress drain and the expiry timers on their %SETTING% schedules', () => {
    const timers = functionDefinitions.filter((definition) => definition.kind === 'timer' && definition.name.startsWith('challenge'));
    expect(timers.map((definition) => [definition.name, definition.kind === 'timer' ? definition.options.schedule : null])).toEqual([
      ['challengeProgress', '%CHALLENGE_PROGRESS_SCHEDULE%'],
      ['challengeProgressDrain', '%CHALLENGE_PROGRESS_DRAIN_SCHEDULE%'],
      ['challengeExpiry', '%CHALLENGE_EXPIRY_SCHEDULE%'],
    ]);
  });

  it('documents the routes, their response schemas and the service credential in OpenAPI', async () => {
    const document = inlineSchemaRefs(
      (await (await host.request('GET', '/api/openapi.json')).json()) as {
        paths: Record<
          string,
          Record<
            string,
            {
              security?: unknown;
              responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
            }
          >
        >;
        components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> };
      },
    );
    const schemaOf = (path: string, method: string, status = '200') =>
      document.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    expect(Object.keys(schemaOf('/api/challenges', 'get')?.properties ?? {})).toEqual(['items', 'nextCursor']);
    expect(Object.keys(schemaOf('/api/challenges/{id}/leaderboard', 'get')?.properties ?? {})).toEqual([
      'board',
      'clubId',
      'items',
      'nextCursor',
      'me',
      'around',
      'challenge',
    ]);
    expect(schemaOf('/api/challenges/achievements', 'get')?.properties).toHaveProperty('badgeGroups');
    expect(schemaOf('/api/challenges/{id}/join', 'post', '201')?.properties).toHaveProperty('shareGlobally');
    expect(document.paths['/api/challenges/personalize']?.['post']?.security).toEqual([{ serviceToken: [] }]);
    const participation = schemaOf('/api/challenges/{id}/join', 'post', '201')?.properties as Record<string, { enum?: string[] }>;
    expect(participation['status']?.enum).toEqual(['active', 'completed', 'failed', 'cancelled']);
    const created = schemaOf('/api/challenges', 'post', '201')?.properties as Record<string, { enum?: string[] }>;
    expect(created['scope']?.enum).toEqual(['global', 'club', 'personal']);
    expect(created['difficulty']?.enum).toEqual(['easy', 'medium', 'hard', 'expert']);
    expect(created['defaultVisibility']?.enum).toEqual(['private', 'club', 'global']);
    expect(document.components.securitySchemes).toHaveProperty('serviceToken');
  });
});
