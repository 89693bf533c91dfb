import type { Queryable } from '../db/client';
import { MICRO_FORMAT } from '../paging/microTimestamp';
import type { ClubRole } from './membershipRepository';

/** Writing club memberships and listing a club's members (reads of one role: membershipRepository.ts). */

export interface MembershipRow {
  clubId: string;
  userId: string;
  role: ClubRole;
  since: Date;
}

const COLUMNS = `club_id as "clubId", user_id as "userId", role, created_at as "since"`;

export async function clubExists(sql: Queryable, clubId: string): Promise<boolean> {
  const [row]: [{ id: string }?] = await sql`select id from club where id = ${clubId}`;
  return row !== undefined;
}

/**
 * Makes the user a leader: a new membership, or a member promoted (keeping since). `created` when
 * the row is new, `changed` when this call made them a leader (false for a leader already, also
 * when a concurrent call promoted them first: the update's condition is re-checked on the row).
 */
export async function upsertLeader(
  sql: Queryable,
  clubId: string,
  userId: string,
): Promise<MembershipRow & { created: boolean; changed: boolean }> {
  const [row]: [(MembershipRow & { created: boolean })?] = await sql`
    insert into club_membership (club_id, user_id, role) values (${clubId}, ${userId}, 'leader')
    on conflict (club_id, user_id) do update set role = 'leader' where club_membership.role <> 'leader'
    returning ${sql.unsafe(COLUMNS)}, (xmax = 0) as created`;
  if (row) return { ...row, changed: true };
  const existing = await findMembership(sql, clubId, userId);
  if (!existing) throw new Error('membership upsert returned no row');
  return { ...existing, created: false, changed: false };
}

/** Adds the user as a member; undefined when they already belong to the club. */
export async function insertMember(sql: Queryable, clubId: string, userId: string, at: Date): Promise<MembershipRow | undefined> {
  const [row]: [MembershipRow?] = await sql`
    insert into club_membership (club_id, user_id, role, created_at) values (${clubId}, ${userId}, 'member', ${at})
    on conflict (club_id, user_id) do nothing
    returning ${sql.unsafe(COLUMNS)}`;
  return row;
}

/**
 * The club's leaders, locked until the transaction ends: a removal and a concurrent removal of
 * the other leader both wait here, so the second sees the first and the club keeps a leader.
 */
export async function lockLeaders(sql: Queryable, clubId: string): Promise<string[]> {
  const rows = await sql<{ userId: string }[]>`
    select user_id as "userId" from club_membership where club_id = ${clubId} and role = 'leader' order by user_id for update`;
  return rows.map((row) => row.userId);
}

export async function findMembership(sql: Queryable, clubId: string, userId: string): Promise<MembershipRow | undefined> {
  const [row]: [MembershipRow?] = await sql`
    select ${sql.unsafe(COLUMNS)} from club_membership where club_id = ${clubId} and user_id = ${userId}`;
  return row;
}

/** Makes a leader of the club a member again (keeping since); undefined when the user is no leader there. */
export async function demoteLeader(sql: Queryable, clubId: string, userId: string): Promise<MembershipRow | undefined> {
  const [row]: [MembershipRow?] = await sql`
    update club_membership set role = 'member' where club_id = ${clubId} and user_id = ${userId} and role = 'leader'
    returning ${sql.unsafe(COLUMNS)}`;
  return row;
}

export async function deleteMembership(sql: Queryable, clubId: string, userId: string): Promise<boolean> {
  const deleted = await sql`delete from club_membership where club_id = ${clubId} and user_id = ${userId}`;
  return deleted.count > 0;
}

export interface MemberListPosition {
  role: ClubRole;
  since: string;
  userId: string;
}

/**
 * A page of the club's members: leaders first ('leader' sorts before 'member'), then by since and
 * user id, each with their display name (null without a profile) joined in the same query.
 */
export function listMembers(
  sql: Queryable,
  query: { clubId: string; role?: ClubRole | undefined; limit: number; after?: MemberListPosition | undefined },
): Promise<(MembershipRow & { cursorSince: string; displayName: string | null })[]> {
  const { clubId, role, limit, after } = query;
  // `::text` before `::timestamptz`: a parameter the server types as timestamptz is serialised
  // through a JS Date, which drops the microseconds the position was written with.
  return sql<(MembershipRow & { cursorSince: string; displayName: string | null })[]>`
    select m.club_id as "clubId", m.user_id as "userId", m.role, m.created_at as "since",
      to_char(m.created_at at time zone 'UTC', ${MICRO_FORMAT}) as "cursorSince", p.display_name as "displayName"
    from club_membership m left join person_profile p on p.user_id = m.user_id
    where m.club_id = ${clubId}
      ${role ? sql`and m.role = ${role}` : sql``}
      ${after ? sql`and (m.role, m.created_at, m.user_id) > (${after.role}, ${after.since}::text::timestamptz, ${after.userId})` : sql``}
    order by m.role, m.created_at, m.user_id
    limit ${limit + 1}`;
}

/** The clubs the user belongs to, with names; a user belongs to few clubs, so at most `limit`. */
export function listOwnClubs(
  sql: Queryable,
  userId: string,
  limit: number,
): Promise<{ clubId: string; name: string; role: ClubRole; since: Date }[]> {
  return sql<{ clubId: string; name: string; role: ClubRole; since: Date }[]>`
    select m.club_id as "clubId", c.name, m.role, m.created_at as since
    from club_membership m join club c on c.id = m.club_id
    where m.user_id = ${userId}
    order by m.created_at, m.club_id
    limit ${limit}`;
}
