import * as v from 'valibot';
import { achievementsOf, AchievementsSchema } from '../shared/challenges/achievements';
import { challengeListCursor, findVisibleChallenge, findChallenge, listChallenges } from '../shared/challenges/challengeRepository';
import { createChallenge, CreateChallengeBodySchema } from '../shared/challenges/createChallenge';
import { expireParticipations } from '../shared/challenges/expiry';
import { leaderboard, leaderboardCursor, LeaderboardPageSchema, type Board } from '../shared/challenges/leaderboard';
import { ChallengePageSchema, ChallengeSchema, ParticipationSchema, PARTICIPATION_STATUSES, SCOPES } from '../shared/challenges/model';
import {
  getSharingPreferences,
  joinChallenge,
  putSharingPreferences,
  setParticipationVisibility,
} from '../shared/challenges/participationRepository';
import { personalize, PersonalizeBodySchema, PersonalizeResponseSchema } from '../shared/challenges/personalize';
import { DIFFICULTIES } from '../shared/challenges/personalizeMaths';
import { evaluateAllActive } from '../shared/challenges/progress';
import { challengesService } from '../shared/guards/challengesService';
import { claimShooter, decideLink, LINK_STATUSES, listClubLinks, listOwnLinks, ShooterLinkSchema } from '../shared/challenges/shooterLinks';
import { visibleText } from '../shared/challenges/text';
import { startSeason } from '../shared/challenges/xpLedger';
import { findClubRole, listClubRoles } from '../shared/clubs/membershipRepository';
import { getSql } from '../shared/db/client';
import { cursorParameter } from '../shared/paging/cursor';
import { pageLimit } from '../shared/paging/limit';
import { NotFoundError } from '../shared/errors/domainErrors';
import { httpGroup, timerFunction } from '../shared/host/definition';
import { clubRole } from '../shared/guards/clubRole';
import { authenticatedUser, platformAdmin, type UserCaller } from '../shared/http/guards';
import { forbidden } from '../shared/http/problem';
import { defineRoute, json, type Route } from '../shared/http/route';

const NO_STORE = { 'cache-control': 'no-store' };
const MAX_PAGE = 100;

const IdSchema = v.pipe(v.string(), v.nonEmpty(), v.maxLength(64));
const ClubIdSchema = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'));

// Every platform check is a capability (shared/auth/roles.ts), never a role name.
const isPlatformAdmin = (caller: UserCaller) => caller.capabilities.has('platform.admin');

const ListQuerySchema = v.object({
  scope: v.optional(v.picklist(SCOPES, 'must be global, club or personal')),
  status: v.optional(v.picklist([...PARTICIPATION_STATUSES, 'available'], 'must be available, active, completed, failed or cancelled')),
  difficulty: v.optional(v.picklist(DIFFICULTIES, 'must be easy, medium, hard or expert')),
  search: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(100, 'must be at most 100 characters'))),
  limit: pageLimit(20, MAX_PAGE),
  cursor: cursorParameter(challengeListCursor),
});

const LeaderboardQuerySchema = v.object({
  scope: v.optional(v.picklist(['global', 'club'], 'must be global or club'), 'global'),
  clubId: v.optional(ClubIdSchema),
  limit: pageLimit(20, MAX_PAGE),
  cursor: cursorParameter(leaderboardCursor),
});

const VisibilityBodySchema = v.pipe(
  v.strictObject({
    shareWithinClub: v.optional(v.boolean('must be true or false')),
    shareGlobally: v.optional(v.boolean('must be true or false')),
  }),
  v.check(
    (body) => body.shareWithinClub !== undefined || body.shareGlobally !== undefined,
    'must set shareWithinClub, shareGlobally or both',
  ),
);

const SharingPreferencesSchema = v.strictObject({
  shareWithinClub: v.boolean('must be true or false'),
  shareGlobally: v.boolean('must be true or false'),
});

/** The club board to show: the challenge's own club, else the asked or the caller's own club. */
async function boardFor(
  caller: UserCaller,
  challenge: { scope: string; clubId: string | null },
  requested: string | undefined,
): Promise<Board> {
  const sql = getSql();
  let clubId = challenge.scope === 'club' ? challenge.clubId : requested;
  if (challenge.scope === 'club' && requested !== undefined && requested !== challenge.clubId) {
    throw forbidden('A club challenge has only its own club board.');
  }
  if (!clubId) {
    const [row]: [{ clubId: string | null }?] = await sql`
      select club_id as "clubId" from challenge_participation where user_id = ${caller.userId} and club_id is not null
      order by joined_at desc limit 1`;
    clubId = row?.clubId ?? (await listClubRoles(sql, caller.userId))[0]?.clubId;
  }
  if (!clubId) throw forbidden('You belong to no club, so there is no club board to show.');
  if (!isPlatformAdmin(caller) && !(await findClubRole(sql, clubId, caller.userId)))
    throw forbidden('Club boards are shown to the club’s members.');
  return { kind: 'club', clubId };
}

const challengeRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/challenges',
    summary:
      'Templates you can see (global, your clubs’, personal ones for you), newest first, with your participation and team progress; filters scope, status (available|active|completed|failed|cancelled), difficulty, search; limit 1..100 (20), cursor',
    guard: authenticatedUser,
    query: ListQuerySchema,
    response: ChallengePageSchema,
    async handle({ caller, query }) {
      const page = await listChallenges(getSql(), caller.userId, {
        scope: query.scope,
        status: query.status,
        difficulty: query.difficulty,
        search: query.search,
        limit: query.limit,
        after: query.cursor ? { createdAt: query.cursor[0], id: query.cursor[1] } : undefined,
      });
      return json(page, 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges',
    summary: 'Create a template (201): platform admins any scope; club leaders only club challenges of their own club; anyone else 403',
    guard: authenticatedUser,
    body: CreateChallengeBodySchema,
    response: ChallengeSchema,
    async handle({ caller, body }) {
      if (!isPlatformAdmin(caller)) {
        if (body.scope !== 'club' || !body.clubId) throw forbidden('Only platform admins create global and personal challenges.');
        if ((await findClubRole(getSql(), body.clubId, caller.userId)) !== 'leader') {
          throw forbidden('Only leaders of this club create its challenges.');
        }
      }
      return json(await createChallenge(getSql(), body, caller.userId), 201);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/achievements',
    summary:
      'Your XP, tier, progress to the next tier, season XP, badges by quality and recent completions; platform admins may pass ?userId=',
    guard: authenticatedUser,
    query: v.object({
      userId: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
    }),
    response: AchievementsSchema,
    async handle({ caller, query }) {
      const userId = query.userId ?? caller.userId;
      if (userId !== caller.userId && !isPlatformAdmin(caller)) throw forbidden('Only platform admins read another user’s achievements.');
      return json(await achievementsOf(getSql(), userId), 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/sharing-preferences',
    summary: 'The sharing flags your next participations start with (both false until you set them)',
    guard: authenticatedUser,
    response: SharingPreferencesSchema,
    async handle({ caller }) {
      return json(await getSharingPreferences(getSql(), caller.userId), 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/challenges/sharing-preferences',
    summary: 'Replace your sharing preferences (existing participations keep their own flags)',
    guard: authenticatedUser,
    body: SharingPreferencesSchema,
    response: SharingPreferencesSchema,
    async handle({ caller, body }) {
      return json(await putSharingPreferences(getSql(), caller.userId, body), 200, NO_STORE);
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
    async handle({ body }) {
      return json(await personalize(getSql(), body), 200);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges/seasons',
    summary: 'Start a new XP season (platform admin): the open season ends now, seasonal totals restart at 0, lifetime totals stay',
    guard: platformAdmin,
    body: v.strictObject({ name: visibleText(80) }),
    response: v.object({ id: v.string(), name: v.string(), startsAt: v.string() }),
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
    guard: authenticatedUser,
    params: v.object({ id: IdSchema }),
    query: LeaderboardQuerySchema,
    response: LeaderboardPageSchema,
    async handle({ caller, params, query }) {
      const sql = getSql();
      const challenge = isPlatformAdmin(caller)
        ? await findChallenge(sql, params.id)
        : await findVisibleChallenge(sql, params.id, caller.userId);
      if (!challenge) throw new NotFoundError('No such challenge.', { code: 'challenge_not_found' });
      const board: Board = query.scope === 'global' ? { kind: 'global' } : await boardFor(caller, challenge, query.clubId);
      const page = await leaderboard(sql, {
        challengeId: challenge.id,
        viewerId: caller.userId,
        board,
        limit: query.limit,
        after: query.cursor,
      });
      return json(page, 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/challenges/{id}/join',
    summary:
      'Join a challenge (201): sharing flags from your sharing preferences; ?clubId= picks the club board of a global or personal challenge',
    guard: authenticatedUser,
    params: v.object({ id: IdSchema }),
    query: v.object({ clubId: v.optional(ClubIdSchema) }),
    response: ParticipationSchema,
    async handle({ caller, params, query }) {
      return json(await joinChallenge(getSql(), caller.userId, params.id, { clubId: query.clubId }), 201);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/challenges/participations/{id}/visibility',
    summary: 'Change shareWithinClub / shareGlobally of your own participation (404 for anyone else’s)',
    guard: authenticatedUser,
    params: v.object({ id: IdSchema }),
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
    summary: 'Claim your shooter record in one of your clubs (201, pending until a club leader confirms)',
    guard: authenticatedUser,
    body: v.strictObject({
      clubId: ClubIdSchema,
      shooterId: v.pipe(
        v.string('must be a string'),
        v.trim(),
        v.nonEmpty('must not be empty'),
        v.maxLength(64, 'must be at most 64 characters'),
      ),
    }),
    response: ShooterLinkSchema,
    async handle({ caller, body }) {
      if (!(await findClubRole(getSql(), body.clubId, caller.userId)))
        throw forbidden('You can only claim a shooter record in a club you belong to.');
      return json(await claimShooter(getSql(), body.clubId, caller.userId, body.shooterId), 201);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/shooter-links',
    summary: 'Your shooter links in every club (at most 100)',
    guard: authenticatedUser,
    response: v.object({ items: v.array(ShooterLinkSchema) }),
    async handle({ caller }) {
      return json({ items: await listOwnLinks(getSql(), caller.userId) }, 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/clubs/{clubId}/shooter-links',
    summary: 'A club’s shooter links in one status (default pending), oldest first, at most 100 (club leaders, or clubs.manage)',
    guard: clubRole('clubId', 'leader', { orCapability: 'clubs.manage' }),
    params: v.object({ clubId: ClubIdSchema }),
    query: v.object({ status: v.optional(v.picklist(LINK_STATUSES, 'must be pending, confirmed or rejected'), 'pending') }),
    response: v.object({ items: v.array(ShooterLinkSchema) }),
    async handle({ params, query }) {
      return json({ items: await listClubLinks(getSql(), params.clubId, query.status) }, 200, NO_STORE);
    },
  }),
  ...(['confirm', 'reject'] as const).map((action) =>
    defineRoute({
      method: 'POST',
      path: `/api/challenges/clubs/{clubId}/shooter-links/{linkId}/${action}`,
      summary: `${action === 'confirm' ? 'Confirm' : 'Reject'} a pending shooter claim of the club (club leaders, or clubs.manage)`,
      guard: clubRole('clubId', 'leader', { orCapability: 'clubs.manage' }),
      params: v.object({ clubId: ClubIdSchema, linkId: IdSchema }),
      response: ShooterLinkSchema,
      async handle({ caller, params }) {
        return json(
          await decideLink(getSql(), params.clubId, params.linkId, caller.userId, action === 'confirm' ? 'confirmed' : 'rejected'),
          200,
        );
      },
    }),
  ),
];

export const challengeFunctions = [
  httpGroup('challenges', 'api/challenges', challengeRoutes),
  timerFunction('challengeProgress', { schedule: '%CHALLENGE_PROGRESS_SCHEDULE%' }, async () => evaluateAllActive(getSql())),
  timerFunction('challengeExpiry', { schedule: '%CHALLENGE_EXPIRY_SCHEDULE%' }, async () => expireParticipations(getSql())),
];
