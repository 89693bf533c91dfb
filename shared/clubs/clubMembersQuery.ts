import type { ClubMembersPage } from './clubMembersSchema';
import type { Queryable } from '../db/client';
import type { ClubRole } from './membershipRepository';

/**
 * One page of a club's memberships, read-only: leaders first, then the longest-standing, then by
 * user id (a stable order, so offset paging neither skips nor repeats a row between pages).
 */
export async function pageClubMembers(sql: Queryable, clubId: string, page: { limit: number; offset: number }): Promise<ClubMembersPage> {
  const [rows, [counts]] = await Promise.all([
    sql<{ userId: string; role: ClubRole; since: Date }[]>`
      select user_id as "userId", role, created_at as since from club_membership
      where club_id = ${clubId}
      order by (role = 'leader') desc, created_at, user_id
      limit ${page.limit} offset ${page.offset}`,
    sql<{ total: number; leaders: number }[]>`
      select count(*)::int as total, count(*) filter (where role = 'leader')::int as leaders
      from club_membership where club_id = ${clubId}`,
  ]);
  const total = counts?.total ?? 0;
  const next = page.offset + rows.length;
  return {
    items: rows.map((row) => ({ userId: row.userId, role: row.role, since: row.since.toISOString() })),
    total,
    leaders: counts?.leaders ?? 0,
    limit: page.limit,
    offset: page.offset,
    nextOffset: next < total && rows.length > 0 ? next : null,
  };
}
