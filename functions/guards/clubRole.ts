import { findClubRole, roleSatisfies, type ClubRole } from '../../shared/clubs/membershipRepository';
import { getSql } from '../../shared/db/client';
import { clubRoleGuard, type ClubCaller } from '../../shared/http/guards';

export type ClubMemberCaller = ClubCaller<ClubRole>;

/** `clubRole('clubId', 'leader', { orCapability: 'clubs.manage' })`: the role comes from club memberships. */
export const clubRole = clubRoleGuard<ClubRole>({
  find: (clubId, userId) => findClubRole(getSql(), clubId, userId),
  satisfies: roleSatisfies,
});
