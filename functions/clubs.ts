import type * as v from 'valibot';
import { withdrawFromClub } from '../shared/challenges/clubDeparture';
import { acceptInvitation, createInvitation, listInvitations, revokeInvitation } from '../shared/clubs/invitations';
import { appointLeader, listClubMembers, ownClubs, removeMember, stepDownLeader, type OnDeparture } from '../shared/clubs/memberships';
import {
  AcceptInvitationBodySchema,
  ClubParamsSchema,
  ClubUserParamsSchema,
  CreateInvitationBodySchema,
  InvitationListQuerySchema,
  InvitationPageSchema,
  InvitationParamsSchema,
  MemberListQuerySchema,
  MemberPageSchema,
  MembershipSchema,
  NewInvitationSchema,
  OwnClubsSchema,
} from '../shared/clubs/schemas';
import { getSql, type Sql } from '../shared/db/client';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { authenticatedUser, requireCapability } from '../shared/http/guards';
import { defineRoute, json, noContent, type Route } from '../shared/http/route';
import { callerResource } from './callerResource';
import { clubRole } from './guards/clubRole';

const NO_STORE = { 'cache-control': 'no-store' };
const leaderOrManager = clubRole('clubId', 'leader', { orCapability: 'clubs.manage' });

/** A member leaving a club leaves its challenges' boards and its shooter links too (docs/clubs.md). */
const departure: OnDeparture = (tx, clubId, userId) => withdrawFromClub(tx, clubId, userId);

/** The 404 of a route on a club named in its path. */
const CLUB_NOT_FOUND = { description: '`code` club_not_found: no such club' };
/** Who may take a member's role or membership away (the club's leaders, platform admins), and the club and user it names. */
const onAClubsMember = { guard: leaderOrManager, params: ClubUserParamsSchema };
/** The 409 of every change that could leave a club without a leader. */
const LAST_LEADER = { description: '`code` last_leader: the club would be left without a leader' };
/** What a log line says of a change to a membership: the club, the member, and who changed it. */
const membershipChange = (params: { clubId: string; userId: string }, caller: { userId: string }) => ({
  clubId: params.clubId,
  userId: params.userId,
  by: caller.userId,
});

/**
 * A page of what a club holds (its members, its open invitations) for its leaders and platform
 * admins: the page query with the club of the path, never cached (it changes with every join).
 */
function clubPage<Q extends v.GenericSchema>(
  path: string,
  summary: string,
  query: Q,
  response: v.GenericSchema,
  read: (sql: Sql, clubId: string, page: v.InferOutput<Q>) => Promise<unknown>,
  responses: Route['responses'] = {},
): Route {
  return defineRoute({
    method: 'GET',
    path,
    summary,
    guard: leaderOrManager,
    params: ClubParamsSchema,
    query,
    response,
    responses,
    async handle({ params, query: page }) {
      return json(await read(getSql(), params.clubId, page), 200, NO_STORE);
    },
  });
}

const clubRoutes: Route[] = [
  ...callerResource('/api/clubs/mine', OwnClubsSchema, {
    GET: { summary: 'The clubs you belong to, with your role there (at most 100)', run: ownClubs },
  }),
  defineRoute({
    method: 'PUT',
    status: 200,
    path: '/api/clubs/{clubId}/leaders/{userId}',
    summary: 'Make a user a leader of the club: a new membership (201) or a member promoted (200); platform admins (clubs.manage)',
    guard: requireCapability('clubs.manage'),
    params: ClubUserParamsSchema,
    response: MembershipSchema,
    responses: {
      201: { description: 'The user was not a member before and is now the club’s leader', schema: MembershipSchema },
      404: CLUB_NOT_FOUND,
    },
    async handle({ params, caller, log }) {
      const { membership, created } = await appointLeader(getSql(), params.clubId, params.userId);
      log.info('club_leader_appointed', { ...membershipChange(params, caller), created });
      return json(membership, created ? 201 : 200);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/clubs/{clubId}/leaders/{userId}',
    summary: 'Undo a leader’s appointment: they stay in the club as a member (club leaders, or clubs.manage; never the club’s last leader)',
    ...onAClubsMember,
    response: MembershipSchema,
    responses: {
      404: { description: '`code` club_not_found (no such club) or leader_not_found (the user is not a leader of this club)' },
      409: LAST_LEADER,
    },
    async handle({ params, caller, log }) {
      const membership = await stepDownLeader(getSql(), params.clubId, params.userId);
      log.info('club_leader_stepped_down', membershipChange(params, caller));
      return json(membership, 200, NO_STORE);
    },
  }),
  clubPage(
    '/api/clubs/{clubId}/members',
    'The club’s members, leaders first, then by membership age; role filter, limit 1..100 (20), cursor (club leaders, or clubs.manage)',
    MemberListQuerySchema,
    MemberPageSchema,
    (sql, clubId, page) => listClubMembers(sql, { clubId, ...page }),
    { 404: CLUB_NOT_FOUND },
  ),
  defineRoute({
    method: 'DELETE',
    status: 204,
    path: '/api/clubs/{clubId}/members/{userId}',
    summary: 'Remove a member (or a leader, never the last one) from the club (club leaders, or clubs.manage)',
    ...onAClubsMember,
    responses: {
      404: { description: '`code` member_not_found: the user is not a member of this club' },
      409: LAST_LEADER,
    },
    async handle({ params, caller, log }) {
      await removeMember(getSql(), params.clubId, params.userId, departure, caller.userId);
      log.info('club_member_removed', membershipChange(params, caller));
      return noContent();
    },
  }),
  defineRoute({
    method: 'POST',
    status: 201,
    path: '/api/clubs/{clubId}/invitations',
    summary:
      'Invite a member (201): a single-use code, shown only in this answer, valid expiresInHours 1..720 (168); at most 50 open per club (club leaders, or clubs.manage)',
    guard: leaderOrManager,
    params: ClubParamsSchema,
    body: CreateInvitationBodySchema,
    response: NewInvitationSchema,
    responses: {
      404: CLUB_NOT_FOUND,
      409: { description: '`code` invitation_cap: the club already holds 50 open invitations' },
    },
    async handle({ params, body, caller, log }) {
      const invitation = await createInvitation(getSql(), {
        clubId: params.clubId,
        createdBy: caller.userId,
        expiresInHours: body.expiresInHours,
      });
      log.info('club_invitation_created', { clubId: params.clubId, invitationId: invitation.id, by: caller.userId });
      return json(invitation, 201, NO_STORE);
    },
  }),
  clubPage(
    '/api/clubs/{clubId}/invitations',
    'The club’s open invitations (unused, unexpired), newest first, without their codes; limit 1..100 (20), cursor (club leaders, or clubs.manage)',
    InvitationListQuerySchema,
    InvitationPageSchema,
    (sql, clubId, page) => listInvitations(sql, { clubId, ...page }),
  ),
  defineRoute({
    method: 'DELETE',
    status: 204,
    path: '/api/clubs/{clubId}/invitations/{invitationId}',
    summary: 'Revoke an invitation of the club: its code stops working (club leaders, or clubs.manage)',
    guard: leaderOrManager,
    params: InvitationParamsSchema,
    responses: { 404: { description: '`code` invitation_not_found: no such invitation in this club' } },
    async handle({ params }) {
      await revokeInvitation(getSql(), params.clubId, params.invitationId);
      return noContent();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/clubs/invitations/accept',
    summary: 'Accept an invitation by its code and become a member of its club (any signed-in user; each code works once)',
    guard: authenticatedUser,
    body: AcceptInvitationBodySchema,
    response: MembershipSchema,
    responses: {
      404: { description: '`code` invitation_not_found: the code is unknown or was revoked' },
      409: {
        description:
          '`code` invitation_used (accepted before), invitation_expired (past its expiry) or already_member (you belong to the club; the code stays unused)',
      },
    },
    async handle({ body, caller, log }) {
      const membership = await acceptInvitation(getSql(), caller.userId, body.code);
      log.info('club_invitation_accepted', { clubId: membership.clubId, userId: caller.userId });
      return json(membership, 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'POST',
    status: 204,
    path: '/api/clubs/{clubId}/leave',
    summary: 'Leave the club (its members; 409 last_leader for its only leader)',
    guard: clubRole('clubId', 'member'),
    params: ClubParamsSchema,
    responses: { 409: { description: '`code` last_leader: you are the club’s only leader; appoint another first' } },
    async handle({ params, caller }) {
      await removeMember(getSql(), params.clubId, caller.userId, departure);
      return noContent();
    },
  }),
];

export const clubFunctions = [defineGroup(declared.clubs, clubRoutes)];
