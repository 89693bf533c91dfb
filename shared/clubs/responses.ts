import * as v from 'valibot';
import { personNameEntries } from '../people/responses';

/**
 * What the club routes answer: a member's own clubs, member lists and invitations. Kept apart from the request
 * schemas and the repositories (cursors, database): this file imports only valibot, so the member
 * app (app/, a browser bundle) imports its types with `import type`.
 */

export const CLUB_ROLES = ['member', 'leader'] as const;
export type ClubRole = (typeof CLUB_ROLES)[number];

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const OwnClubsSchema = v.pipe(
  v.object({
    items: v.array(v.object({ clubId: v.string(), name: v.string(), role: v.picklist(CLUB_ROLES), since: timestamp })),
  }),
  v.title('OwnClubs'),
);
export type OwnClubs = v.InferOutput<typeof OwnClubsSchema>;

export const MembershipSchema = v.pipe(
  v.object({ clubId: v.string(), userId: v.string(), role: v.picklist(CLUB_ROLES), since: timestamp }),
  v.title('Membership'),
);
export type Membership = v.InferOutput<typeof MembershipSchema>;

/** A membership in a club's member list, with the person's name (null without a profile). */
export const ClubMemberSchema = v.pipe(v.object({ ...MembershipSchema.entries, ...personNameEntries }), v.title('ClubMember'));

export const MemberPageSchema = v.pipe(
  v.object({ items: v.array(ClubMemberSchema), nextCursor: v.nullable(v.string()) }),
  v.title('MemberPage'),
);
export type MemberPage = v.InferOutput<typeof MemberPageSchema>;

export const InvitationSchema = v.pipe(
  v.object({ id: v.string(), clubId: v.string(), createdBy: v.string(), createdAt: timestamp, expiresAt: timestamp }),
  v.title('Invitation'),
);
export type Invitation = v.InferOutput<typeof InvitationSchema>;

export const NewInvitationSchema = v.pipe(v.object({ ...InvitationSchema.entries, code: v.string() }), v.title('NewInvitation'));
export type NewInvitation = v.InferOutput<typeof NewInvitationSchema>;

export const InvitationPageSchema = v.pipe(
  v.object({ items: v.array(InvitationSchema), nextCursor: v.nullable(v.string()) }),
  v.title('InvitationPage'),
);
export type InvitationPage = v.InferOutput<typeof InvitationPageSchema>;
