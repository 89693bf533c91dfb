import { findClubRole } from '../clubs/membershipRepository';
export const probe = findClubRole;
