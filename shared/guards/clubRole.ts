import { findClubRole, roleSatisfies, type ClubRole } from '../clubs/membershipRepository';
import { getSql } from '../db/client';
import { clubRoleGuard, type ClubCaller } from '../http/guards';

export type ClubMemberCaller = ClubCaller<ClubRole>;

/** `clubRole('clubId', 'leader', { orCapability: 'clubs.manage' })`: the role comes from club memberships. */
export const clubRole = clubRoleGuard<ClubRole>({
  find: (clubId, userId) => findClubRole(getSql(), clubId, userId),
  satisfies: roleSatisfies,
});
