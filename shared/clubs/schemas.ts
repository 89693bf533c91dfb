import * as v from 'valibot';
import { userIdSchema } from '../auth/subject';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { bodyWholeNumber } from '../validation/wholeNumber';
import { invitationListCursor, memberListCursor } from './cursors';
import { CLUB_ROLES } from './membershipRepository';

/** Every schema of the membership API (docs/clubs.md). */

const ClubIdSchema = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'));
/** A user is the `sub` of their token, as the identity provider issues it: the same rule as the token's. */
const UserIdSchema = userIdSchema();

export const ClubParamsSchema = v.object({ clubId: ClubIdSchema });
export const ClubUserParamsSchema = v.object({ clubId: ClubIdSchema, userId: UserIdSchema });
export const InvitationParamsSchema = v.object({
  clubId: ClubIdSchema,
  invitationId: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
});

export const MemberListQuerySchema = v.object({
  role: v.optional(v.picklist(CLUB_ROLES, 'must be member or leader')),
  limit: pageLimit(20, 100),
  cursor: cursorParameter(memberListCursor),
});

// The answers live in responses.ts (no I/O in its imports, so the member app can import their types).
export {
  InvitationPageSchema,
  InvitationSchema,
  MemberPageSchema,
  MembershipSchema,
  NewInvitationSchema,
  OwnClubsSchema,
} from './responses';
export type { Invitation, InvitationPage, MemberPage, Membership, NewInvitation, OwnClubs } from './responses';

// --- invitations ---

/** Invitations last a week unless the leader says otherwise; at most 30 days. */
export const DEFAULT_INVITATION_HOURS = 168;
export const MAX_INVITATION_HOURS = 720;

export const CreateInvitationBodySchema = v.strictObject({
  expiresInHours: v.optional(bodyWholeNumber(1, MAX_INVITATION_HOURS), DEFAULT_INVITATION_HOURS),
});

export const InvitationListQuerySchema = v.object({ limit: pageLimit(20, 100), cursor: cursorParameter(invitationListCursor) });

export const AcceptInvitationBodySchema = v.strictObject({
  code: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
});
