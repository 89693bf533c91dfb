import { assertMayClaimShooter, assertMayCreateChallenge, assertMayReadAchievements, maxRewardXpFor } from '../shared/challenges/access';
import { achievementsOf } from '../shared/challenges/achievements';
import { listChallenges } from '../shared/challenges/challengeRepository';
import { leaderboardForViewer } from '../shared/challenges/clubBoard';
import { createChallenge } from '../shared/challenges/createChallenge';
import { remindEndingChallenges } from '../shared/challenges/endReminders';
import { expireParticipations } from '../shared/challenges/expiry';
import { ChallengePageSchema, ChallengeSchema, ParticipationSchema } from '../shared/challenges/model';
import {
  getSharingPreferences,
  joinChallenge,
  putSharingPreferences,
  setParticipationVisibility,
} from '../shared/challenges/participationRepository';
import { personalize } from '../shared/challenges/personalize';
import { evaluateAllActive } from '../shared/challenges/progress';
import { DRAIN_BUDGET_MS, drainTouchedShooters } from '../shared/challenges/progressDrain';
import {
  AchievementsQuerySchema,
  AchievementsSchema,
  ClubLinksQuerySchema,
  ClubParamsSchema,
  CreateChallengeBodySchema,
  IdParamsSchema,
  JoinQuerySchema,
  ClubShooterLinkListSchema,
  LeaderboardPageSchema,
  LeaderboardQuerySchema,
  LinkParamsSchema,
  ListQuerySchema,
  PersonalizeBodySchema,
  PersonalizeResponseSchema,
  SeasonBodySchema,
  SeasonSchema,
  SharingPreferencesSchema,
  ShooterClaimBodySchema,
  ShooterLinkListSchema,
  ShooterLinkSchema,
  VisibilityBodySchema,
} from '../shared/challenges/schemas';
import { startSeason } from '../shared/challenges/seasons';
import { StreakSchema } from '../shared/challenges/streakSchemas';
import { streakOf, warnStreaksAtRisk } from '../shared/challenges/streakService';
import { claimShooter, decideLink, listClubLinks, listOwnLinks } from '../shared/challenges/shooterLinks';
import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { READER_LANGUAGE_HEADERS, requestLanguage } from '../shared/notifications/requestLanguage';
import { callerResource } from './callerResource';
import { memberChallengeRoutes, onYourParticipation } from './challengesMember';
import { challengesService } from './guards/challengesService';
import { clubRole } from './guards/clubRole';
import { defineGroup, defineTimer } from '../shared/host/definition';
import { declared } from './declarations';
import { authenticatedUser, platformAdmin } from '../shared/http/guards';
import { defineRoute, json, type Route } from '../shared/http/route';

const NO_STORE = { 'cache-control': 'no-store' };

/** Who may call a route on one challenge (anyone signed in, naming it in the path), and the 404 when they cannot see it. */
const onAVisibleChallenge = {
  guard: authenticatedUser,
  params: IdParamsSchema,
  responses: { 404: { description: '`code` challenge_not_found: no such challenge, or one you cannot see' } },
};

const challengeRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/challenges',
    summary:
      'Templates you can see (global, your clubs’, personal ones for you), newest first, with your participation and team progress; filters scope, status (available|active|completed|failed|cancelled), difficulty, search; limit 1..100 (20), cursor',
    guard: authenticatedUser,
    query: ListQuerySchema,
    response: ChallengePageSchema,
    async handle({ caller, query, request }) {
      const sql = getSql();
      const page = await listChallenges(sql, caller.userId, {
        language: await requestLanguage(sql, request, caller.userId),
        scope: query.scope,
        status: query.status,
        difficulty: query.difficulty,
        search: query.search,
        limit: query.limit,
        after: query.cursor ? { createdAt: query.cursor[0], id: query.cursor[1] } : undefined,
      });
      return json(page, 200, READER_LANGUAGE_HEADERS);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges',
    summary:
      'Create a template (201): platform admins any scope (rewardXp up to 100000); club leaders only club challenges of their own club (rewardXp up to 1000); anyone else 403',
    guard: authenticatedUser,
    body: CreateChallengeBodySchema,
    response: ChallengeSchema,
    async handle({ caller, body, request }) {
      const sql = getSql();
      await assertMayCreateChallenge(sql, caller, body);
      const language = await requestLanguage(sql, request, caller.userId);
      return json(
        await createChallenge(sql, body, caller.userId, { maxRewardXp: maxRewardXpFor(caller), language }),
        201,
        READER_LANGUAGE_HEADERS,
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/achievements',
    summary:
      'Your XP, tier, progress to the next tier, season XP, badges by quality and recent completions; platform admins may pass ?userId=',
    guard: authenticatedUser,
    query: AchievementsQuerySchema,
    response: AchievementsSchema,
    async handle({ caller, query, request }) {
      const userId = query.userId ?? caller.userId;
      assertMayReadAchievements(caller, userId);
      const sql = getSql();
      return json(await achievementsOf(sql, userId, await requestLanguage(sql, request, caller.userId)), 200, READER_LANGUAGE_HEADERS);
    },
  }),
  ...callerResource('/api/challenges/sharing-preferences', SharingPreferencesSchema, {
    GET: { summary: 'The sharing flags your next participations start with (both false until you set them)', run: getSharingPreferences },
    PUT: {
      summary: 'Replace your sharing preferences (existing participations keep their own flags)',
      body: SharingPreferencesSchema,
      run: putSharingPreferences,
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/challenges/personalize',
    summary:
      'Service endpoint: generate or regenerate an adaptive personal goal (average × (1 + difficulty multiplier)); 409 insufficient_history',
    guard: challengesService,
    body: PersonalizeBodySchema,
    response: PersonalizeResponseSchema,
    responses: {
      409: { description: '`code` insufficient_history: too few training sessions in the look-back window for an adaptive goal' },
    },
    async handle({ body, request }) {
      // A service call has no member: Accept-Language, else the member the goal is for.
      const sql = getSql();
      return json(await personalize(sql, body, new Date(), await requestLanguage(sql, request, body.userId)), 200, READER_LANGUAGE_HEADERS);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges/seasons',
    summary: 'Start a new XP season (platform admin): the open season ends now, seasonal totals restart at 0, lifetime totals stay',
    guard: platformAdmin,
    body: SeasonBodySchema,
    response: SeasonSchema,
    responses: { 409: { description: '`code` season_overlap: the open season starts later than the new one would' } },
    async handle({ body }) {
      const season = await startSeason(getSql(), body.name, new Date());
      return json({ id: season.id, name: season.name, startsAt: season.startsAt.toISOString() }, 201);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/{id}/leaderboard',
    summary:
      'Leaderboard of a challenge you can see: scope=global|club (clubId for global challenges), limit 1..100 (20), cursor; your own row with its rank in `me`, rows around it in `around`',
    ...onAVisibleChallenge,
    query: LeaderboardQuerySchema,
    response: LeaderboardPageSchema,
    async handle({ caller, params, query, request }) {
      const sql = getSql();
      const language = await requestLanguage(sql, request, caller.userId);
      return json(await leaderboardForViewer(sql, caller, params.id, query, language), 200, READER_LANGUAGE_HEADERS);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges/{id}/join',
    summary:
      'Join a challenge (201): sharing flags from your sharing preferences; ?clubId= picks the club board of a global or personal challenge',
    ...onAVisibleChallenge,
    query: JoinQuerySchema,
    response: ParticipationSchema,
    responses: {
      ...onAVisibleChallenge.responses,
      409: {
        description:
          '`code` already_joined (you joined it before), challenge_ended (its end date has passed) or level_out_of_bounds (your tier is outside its levels)',
      },
    },
    async handle({ caller, params, query }) {
      return json(await joinChallenge(getSql(), caller.userId, params.id, { clubId: query.clubId }), 201);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/challenges/participations/{id}/visibility',
    summary: 'Change shareWithinClub / shareGlobally of your own participation (404 for anyone else’s)',
    ...onYourParticipation,
    body: VisibilityBodySchema,
    response: ParticipationSchema,
    async handle({ caller, params, body }) {
      return json(await setParticipationVisibility(getSql(), caller.userId, params.id, body), 200);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges/shooter-links',
    summary: 'Claim your shooter record in one of your clubs (201, pending until another leader of the club or a platform admin confirms)',
    guard: authenticatedUser,
    body: ShooterClaimBodySchema,
    response: ShooterLinkSchema,
    responses: {
      404: { description: '`code` shooter_not_found: the club has no such shooter record' },
      409: {
        description:
          '`code` shooter_taken (another member is linked to the record) or link_exists (you have an open or confirmed link in this club)',
      },
    },
    async handle({ caller, body }) {
      await assertMayClaimShooter(getSql(), caller, body.clubId);
      return json(await claimShooter(getSql(), body.clubId, caller.userId, body.shooterId), 201);
    },
  }),
  ...callerResource('/api/challenges/shooter-links', ShooterLinkListSchema, {
    GET: {
      summary: 'Your shooter links in every club (at most 100)',
      run: async (sql, userId) => ({ items: await listOwnLinks(sql, userId) }),
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/clubs/{clubId}/shooter-links',
    summary: 'A club’s shooter links in one status (default pending), oldest first, at most 100 (club leaders, or clubs.manage)',
    guard: clubRole('clubId', 'leader', { orCapability: 'clubs.manage' }),
    params: ClubParamsSchema,
    query: ClubLinksQuerySchema,
    response: ClubShooterLinkListSchema,
    async handle({ params, query }) {
      return json({ items: await listClubLinks(getSql(), params.clubId, query.status) }, 200, NO_STORE);
    },
  }),
  ...(['confirm', 'reject'] as const).map((action) =>
    defineRoute({
      method: 'POST',
      path: `/api/challenges/clubs/{clubId}/shooter-links/{linkId}/${action}`,
      summary: `${action === 'confirm' ? 'Confirm' : 'Reject'} a pending shooter claim of the club (club leaders, or clubs.manage; 403 own_claim for your own claim)`,
      guard: clubRole('clubId', 'leader', { orCapability: 'clubs.manage' }),
      params: LinkParamsSchema,
      response: ShooterLinkSchema,
      responses: {
        404: { description: '`code` link_not_found: no pending claim with this id in this club' },
        ...(action === 'confirm'
          ? { 409: { description: '`code` shooter_taken: another member is already linked to this shooter record' } }
          : {}),
      },
      async handle({ caller, params }) {
        const decision = action === 'confirm' ? 'confirmed' : 'rejected';
        return json(await decideLink(getSql(), params.clubId, params.linkId, caller.userId, decision), 200);
      },
    }),
  ),
];

const streakRoutes = callerResource('/api/me/streak', StreakSchema, {
  GET: {
    summary:
      'Your training streak: ISO weeks in a row (Europe/Berlin) with a training day of your confirmed shooter record, the longest, this week, the month’s freeze (one missed week a calendar month) and when the week ends',
    run: (sql, userId) => streakOf(sql, userId),
  },
});

export const challengeFunctions = [
  defineGroup(declared.challenges, [...challengeRoutes, ...memberChallengeRoutes]),
  defineGroup(declared.trainingStreak, streakRoutes),
  // The streak's warning rides on the progress sweep: it needs no schedule of its own (it acts on Sundays).
  defineTimer(declared.challengeProgress, async () => ({
    ...(await evaluateAllActive(getSql())),
    streakWarnings: await warnStreaksAtRisk(getSql()),
  })),
  // Every few seconds: a drain that found the queue empty logs at debug level only.
  defineTimer(
    declared.challengeProgressDrain,
    async () => {
      const settings = getSettings();
      return drainTouchedShooters(getSql(), {
        shooters: settings.CHALLENGE_PROGRESS_DRAIN_SHOOTERS,
        lanes: settings.CHALLENGE_PROGRESS_DRAIN_LANES,
        budgetMs: DRAIN_BUDGET_MS,
      });
    },
    { idle: (outcome) => outcome?.['shooters'] === 0 },
  ),
  // Past deadlines end first; then members whose attempt ends within 24 hours are reminded.
  defineTimer(declared.challengeExpiry, async () => {
    const expired = await expireParticipations(getSql());
    return { ...expired, reminded: await remindEndingChallenges(getSql()) };
  }),
];
