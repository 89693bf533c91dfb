import type { ClubMembersPage } from './clubMembersSchema';
import type { Queryable } from '../db/client';
import type { ClubRole } from './membershipRepository';
import { personName } from '../people/names';

/**
 * One page of a club's memberships, read-only, each with the person's name: leaders first, then the longest-standing, then by
 * user id (a stable order, so offset paging neither skips nor repeats a row between pages).
 */
export async function pageClubMembers(sql: Queryable, clubId: string, page: { limit: number; offset: number }): Promise<ClubMembersPage> {
  const [rows, [counts]] = await Promise.all([
    sql<{ userId: string; role: ClubRole; since: Date; displayName: string | null }[]>`
      select m.user_id as "userId", m.role, m.created_at as since, p.display_name as "displayName"
      from club_membership m left join person_profile p on p.user_id = m.user_id
      where m.club_id = ${clubId}
      order by (m.role = 'leader') desc, m.created_at, m.user_id
      limit ${page.limit} offset ${page.offset}`,
    sql<{ total: number; leaders: number }[]>`
      select count(*)::int as total, count(*) filter (where role = 'leader')::int as leaders
      from club_membership where club_id = ${clubId}`,
  ]);
  const total = counts?.total ?? 0;
  const next = page.offset + rows.length;
  return {
    items: rows.map((row) => ({ userId: row.userId, ...personName(row.displayName), role: row.role, since: row.since.toISOString() })),
    total,
    leaders: counts?.leaders ?? 0,
    limit: page.limit,
    offset: page.offset,
    nextOffset: next < total && rows.length > 0 ? next : null,
  };
}
