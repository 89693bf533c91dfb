import type { Queryable } from '../db/client';
import { CLUB_ROLES, type ClubRole } from './responses';

/** Club roles live in the database (`club_membership`), never in the token. A leader is also a member. */
export { CLUB_ROLES, type ClubRole };

/** The user's role in the club, or undefined when they are not a member (or the club does not exist). */
export async function findClubRole(sql: Queryable, clubId: string, userId: string): Promise<ClubRole | undefined> {
  const [row]: [{ role: ClubRole }?] = await sql`
    select role from club_membership where club_id = ${clubId} and user_id = ${userId}
  `;
  return row?.role;
}

/** Every club the user belongs to, with their role there. */
export async function listClubRoles(sql: Queryable, userId: string): Promise<{ clubId: string; role: ClubRole }[]> {
  return sql<{ clubId: string; role: ClubRole }[]>`
    select club_id as "clubId", role from club_membership where user_id = ${userId} order by club_id
  `;
}

/** Whether `held` satisfies `required`: a leader may do what a member may. */
export function roleSatisfies(held: ClubRole | undefined, required: ClubRole): boolean {
  if (!held) return false;
  return required === 'member' || held === 'leader';
}
