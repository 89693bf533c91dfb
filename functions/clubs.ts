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
import { getSql } from '../shared/db/client';
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
      log.info('club_leader_appointed', { clubId: params.clubId, userId: params.userId, by: caller.userId, created });
      return json(membership, created ? 201 : 200);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/clubs/{clubId}/leaders/{userId}',
    summary: 'Undo a leader’s appointment: they stay in the club as a member (club leaders, or clubs.manage; never the club’s last leader)',
    guard: leaderOrManager,
    params: ClubUserParamsSchema,
    response: MembershipSchema,
    responses: {
      404: { description: '`code` club_not_found (no such club) or leader_not_found (the user is not a leader of this club)' },
      409: { description: '`code` last_leader: the club would be left without a leader' },
    },
    async handle({ params, caller, log }) {
      const membership = await stepDownLeader(getSql(), params.clubId, params.userId);
      log.info('club_leader_stepped_down', { clubId: params.clubId, userId: params.userId, by: caller.userId });
      return json(membership, 200, NO_STORE);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/clubs/{clubId}/members',
    summary:
      'The club’s members, leaders first, then by membership age; role filter, limit 1..100 (20), cursor (club leaders, or clubs.manage)',
    guard: leaderOrManager,
    params: ClubParamsSchema,
    query: MemberListQuerySchema,
    response: MemberPageSchema,
    responses: { 404: CLUB_NOT_FOUND },
    async handle({ params, query }) {
      return json(
        await listClubMembers(getSql(), { clubId: params.clubId, role: query.role, limit: query.limit, cursor: query.cursor }),
        200,
        NO_STORE,
      );
    },
  }),
  defineRoute({
    method: 'DELETE',
    status: 204,
    path: '/api/clubs/{clubId}/members/{userId}',
    summary: 'Remove a member (or a leader, never the last one) from the club (club leaders, or clubs.manage)',
    guard: leaderOrManager,
    params: ClubUserParamsSchema,
    responses: {
      404: { description: '`code` member_not_found: the user is not a member of this club' },
      409: { description: '`code` last_leader: the club would be left without a leader' },
    },
    async handle({ params, caller, log }) {
      await removeMember(getSql(), params.clubId, params.userId, departure, caller.userId);
      log.info('club_member_removed', { clubId: params.clubId, userId: params.userId, by: caller.userId });
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
  defineRoute({
    method: 'GET',
    path: '/api/clubs/{clubId}/invitations',
    summary:
      'The club’s open invitations (unused, unexpired), newest first, without their codes; limit 1..100 (20), cursor (club leaders, or clubs.manage)',
    guard: leaderOrManager,
    params: ClubParamsSchema,
    query: InvitationListQuerySchema,
    response: InvitationPageSchema,
    async handle({ params, query }) {
      return json(await listInvitations(getSql(), { clubId: params.clubId, limit: query.limit, cursor: query.cursor }), 200, NO_STORE);
    },
  }),
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
