import { badgesOfMember } from '../shared/challenges/memberBadges';
import { getBadgePreferences, putBadgePreferences } from '../shared/challenges/badgeVisibilityRepository';
import { ladderForViewer } from '../shared/challenges/ladder';
import { leaveChallenge } from '../shared/challenges/leave';
import {
  BadgePreferencesSchema,
  LadderPageSchema,
  LadderQuerySchema,
  MemberBadgesSchema,
  MemberPersonalizeBodySchema,
  UserParamsSchema,
} from '../shared/challenges/memberSchemas';
import { ParticipationSchema } from '../shared/challenges/model';
import { personalize } from '../shared/challenges/personalize';
import { IdParamsSchema, PersonalizeResponseSchema } from '../shared/challenges/schemas';
import { getSql } from '../shared/db/client';
import { READER_LANGUAGE_HEADERS, requestLanguage } from '../shared/notifications/requestLanguage';
import { callerResource } from './callerResource';
import { authenticatedUser } from '../shared/http/guards';
import { defineRoute, json, type Route } from '../shared/http/route';

const NO_STORE = { 'cache-control': 'no-store' };

/** The reward of a goal a member generates for themself: the service's default, never the member's choice. */
const MEMBER_GOAL_REWARD_XP = 500;

/** Who may call a route on one participation (its own user, who names it in the path), and the 404 for anyone else's. */
export const onYourParticipation = {
  guard: authenticatedUser,
  params: IdParamsSchema,
  responses: { 404: { description: '`code` participation_not_found: no participation of yours with this id' } },
};

/** The member's own side of challenges, served in the `challenges` group (functions/challenges.ts). */
export const memberChallengeRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/challenges/personalize/me',
    summary:
      'Generate or regenerate your own adaptive goal (same maths as the service endpoint: your average × (1 + difficulty multiplier), reward 500 XP); 409 insufficient_history',
    guard: authenticatedUser,
    body: MemberPersonalizeBodySchema,
    response: PersonalizeResponseSchema,
    responses: {
      409: { description: '`code` insufficient_history: too few training sessions of your linked shooter in the look-back window' },
    },
    async handle({ caller, body, request }) {
      const sql = getSql();
      const language = await requestLanguage(sql, request, caller.userId);
      const goal = await personalize(sql, { ...body, userId: caller.userId, rewardXp: MEMBER_GOAL_REWARD_XP }, new Date(), language);
      return json(goal, 200, READER_LANGUAGE_HEADERS);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/challenges/participations/{id}/leave',
    summary:
      'Leave a challenge: your active participation becomes cancelled and leaves every board; earned XP and badges stay; joining again starts afresh (404 for anyone else’s)',
    ...onYourParticipation,
    response: ParticipationSchema,
    responses: {
      ...onYourParticipation.responses,
      409: { description: '`code` not_active: only an active participation can be left' },
    },
    async handle({ caller, params }) {
      return json(await leaveChallenge(getSql(), caller.userId, params.id), 200);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/ladder',
    summary:
      'XP ladder: period=lifetime|season (seasonId, default the open one), scope=global|club (clubId; club members and platform admins), limit 1..100 (20), cursor; who shares per their sharing preferences, your own row in `me`, neighbours in `around`',
    guard: authenticatedUser,
    query: LadderQuerySchema,
    response: LadderPageSchema,
    responses: { 404: { description: '`code` season_not_found: no such season, or no season is open' } },
    async handle({ caller, query }) {
      return json(await ladderForViewer(getSql(), caller, query), 200, NO_STORE);
    },
  }),
  ...callerResource('/api/challenges/badge-preferences', BadgePreferencesSchema, {
    GET: {
      summary: 'Whether fellow club members see your badges from private challenges (false until you set it)',
      run: getBadgePreferences,
    },
    PUT: {
      summary: 'Show or hide your badges from private challenges to fellow club members',
      body: BadgePreferencesSchema,
      run: putBadgePreferences,
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/challenges/members/{userId}/badges',
    summary:
      'A user’s public profile as you may see it: badges shared globally to everyone, shared within the club to its members, private ones only if they show them (to fellow club members); lifetime XP and tier (`standing`) under the XP ladders’ opt-in, else null; all for themself and platform admins',
    guard: authenticatedUser,
    params: UserParamsSchema,
    response: MemberBadgesSchema,
    async handle({ caller, params, request }) {
      const sql = getSql();
      const language = await requestLanguage(sql, request, caller.userId);
      return json(await badgesOfMember(sql, caller, params.userId, language), 200, READER_LANGUAGE_HEADERS);
    },
  }),
];
