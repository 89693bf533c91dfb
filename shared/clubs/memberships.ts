import type { Sql, TransactionSql } from '../db/client';
import { ConflictError, NotFoundError } from '../errors/domainErrors';
import {
  clubExists,
  deleteMembership,
  demoteLeader,
  findMembership,
  listMembers,
  listOwnClubs,
  lockLeaders,
  upsertLeader,
  type MembershipRow,
} from './clubMembersRepository';
import { memberListCursor } from './cursors';
import { noticeMembership } from './memberNotices';
import type { ClubRole } from './membershipRepository';
import { personName } from '../people/names';
import type { MemberPage, Membership, OwnClubs } from './schemas';

/**
 * Club memberships end to end: platform admins appoint leaders, leaders list and remove members,
 * members leave. A club never loses its last leader through these paths.
 */

const view = (row: MembershipRow): Membership => ({
  clubId: row.clubId,
  userId: row.userId,
  role: row.role,
  since: row.since.toISOString(),
});

/** Makes the user a leader of the club (a new membership, or a member promoted) and tells them so. */
export async function appointLeader(sql: Sql, clubId: string, userId: string): Promise<{ membership: Membership; created: boolean }> {
  return sql.begin(async (tx) => {
    if (!(await clubExists(tx, clubId))) throw new NotFoundError('No such club.', { code: 'club_not_found' });
    const row = await upsertLeader(tx, clubId, userId);
    if (row.changed) await noticeMembership(tx, 'madeLeader', clubId, userId);
    return { membership: view(row), created: row.created };
  });
}

export async function listClubMembers(
  sql: Sql,
  query: { clubId: string; role?: ClubRole | undefined; limit: number; cursor?: [ClubRole, string, string] | undefined },
): Promise<MemberPage> {
  if (!(await clubExists(sql, query.clubId))) throw new NotFoundError('No such club.', { code: 'club_not_found' });
  const after = query.cursor ? { role: query.cursor[0], since: query.cursor[1], userId: query.cursor[2] } : undefined;
  const rows = await listMembers(sql, { clubId: query.clubId, role: query.role, limit: query.limit, after });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({ ...view(row), ...personName(row.displayName) })),
    nextCursor: rows.length > query.limit && last ? memberListCursor.encode([last.role, last.cursorSince, last.userId]) : null,
  };
}

/**
 * Undoes a leader's appointment: they stay in the club as a member. Locks the club's leaders
 * first, as a removal does, so the club never loses its last leader this way either.
 */
export async function stepDownLeader(sql: Sql, clubId: string, userId: string): Promise<Membership> {
  return sql.begin(async (tx) => {
    if (!(await clubExists(tx, clubId))) throw new NotFoundError('No such club.', { code: 'club_not_found' });
    const leaders = await lockLeaders(tx, clubId);
    if (!leaders.includes(userId)) throw new NotFoundError('This user is not a leader of the club.', { code: 'leader_not_found' });
    if (leaders.length <= 1) {
      throw new ConflictError('The club would be left without a leader; appoint another leader first.', { code: 'last_leader' });
    }
    const row = await demoteLeader(tx, clubId, userId);
    if (!row) throw new Error('The locked leader row was not updated');
    return view(row);
  });
}

/** What else leaves the club with a member (the functions layer passes challenges' part), in the same transaction. */
export type OnDeparture = (tx: TransactionSql, clubId: string, userId: string) => Promise<void>;

/**
 * Removes the user from the club. The club's leaders are locked first, so two leaders removing
 * each other (or leaving at once) cannot both succeed: the second finds the club's last leader.
 * `removedBy`, someone other than the user, is told to the user as a removal; leaving says nothing.
 */
export async function removeMember(sql: Sql, clubId: string, userId: string, onDeparture?: OnDeparture, removedBy?: string): Promise<void> {
  await sql.begin(async (tx) => {
    const leaders = await lockLeaders(tx, clubId);
    const membership = await findMembership(tx, clubId, userId);
    if (!membership) throw new NotFoundError('This user is not a member of the club.', { code: 'member_not_found' });
    if (membership.role === 'leader' && leaders.length <= 1) {
      throw new ConflictError('The club would be left without a leader; appoint another leader first.', { code: 'last_leader' });
    }
    await deleteMembership(tx, clubId, userId);
    await onDeparture?.(tx, clubId, userId);
    if (removedBy !== undefined && removedBy !== userId) await noticeMembership(tx, 'removed', clubId, userId);
  });
}

export async function ownClubs(sql: Sql, userId: string): Promise<OwnClubs> {
  const rows = await listOwnClubs(sql, userId, 100);
  return { items: rows.map((row) => ({ ...row, since: row.since.toISOString() })) };
}
