import * as v from 'valibot';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { bodyWholeNumber } from '../validation/wholeNumber';
import { invitationListCursor, memberListCursor } from './cursors';
import { CLUB_ROLES } from './membershipRepository';

/** Every schema of the membership API (docs/clubs.md). */

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const ClubIdSchema = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'));
/** A user is the `sub` of their token, as the identity provider issues it. */
const UserIdSchema = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters'));

export const ClubParamsSchema = v.object({ clubId: ClubIdSchema });
export const ClubUserParamsSchema = v.object({ clubId: ClubIdSchema, userId: UserIdSchema });
export const InvitationParamsSchema = v.object({
  clubId: ClubIdSchema,
  invitationId: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
});

export const MembershipSchema = v.pipe(
  v.object({ clubId: v.string(), userId: v.string(), role: v.picklist(CLUB_ROLES), since: timestamp }),
  v.title('Membership'),
);
export type Membership = v.InferOutput<typeof MembershipSchema>;

export const MemberListQuerySchema = v.object({
  role: v.optional(v.picklist(CLUB_ROLES, 'must be member or leader')),
  limit: pageLimit(20, 100),
  cursor: cursorParameter(memberListCursor),
});

export const MemberPageSchema = v.pipe(
  v.object({ items: v.array(MembershipSchema), nextCursor: v.nullable(v.string()) }),
  v.title('MemberPage'),
);
export type MemberPage = v.InferOutput<typeof MemberPageSchema>;

// The member's own clubs live in responses.ts (no I/O in its imports, so the member app can import the type).
export { OwnClubsSchema } from './responses';
export type { OwnClubs } from './responses';

// --- invitations ---

/** Invitations last a week unless the leader says otherwise; at most 30 days. */
export const DEFAULT_INVITATION_HOURS = 168;
export const MAX_INVITATION_HOURS = 720;

export const CreateInvitationBodySchema = v.strictObject({
  expiresInHours: v.optional(bodyWholeNumber(1, MAX_INVITATION_HOURS), DEFAULT_INVITATION_HOURS),
});

export const InvitationSchema = v.pipe(
  v.object({ id: v.string(), clubId: v.string(), createdBy: v.string(), createdAt: timestamp, expiresAt: timestamp }),
  v.title('Invitation'),
);
export type Invitation = v.InferOutput<typeof InvitationSchema>;

export const NewInvitationSchema = v.pipe(v.object({ ...InvitationSchema.entries, code: v.string() }), v.title('NewInvitation'));
export type NewInvitation = v.InferOutput<typeof NewInvitationSchema>;

export const InvitationListQuerySchema = v.object({ limit: pageLimit(20, 100), cursor: cursorParameter(invitationListCursor) });

export const InvitationPageSchema = v.pipe(
  v.object({ items: v.array(InvitationSchema), nextCursor: v.nullable(v.string()) }),
  v.title('InvitationPage'),
);
export type InvitationPage = v.InferOutput<typeof InvitationPageSchema>;

export const AcceptInvitationBodySchema = v.strictObject({
  code: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
});
