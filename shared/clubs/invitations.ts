import type { Sql } from '../db/client';
import { ConflictError, InvalidError, NotFoundError } from '../errors/domainErrors';
import { insertMember } from './clubMembersRepository';
import { invitationListCursor } from './cursors';
import { noticeMembership } from './memberNotices';
import { digestsMatch, generateInvitationCode, hashInvitationCode, normaliseInvitationCode } from './invitationCode';
import {
  countInvitations,
  deleteInvitation,
  findInvitationByHashForUpdate,
  insertInvitation,
  listOpenInvitations,
  lockClubForInvitations,
  markInvitationUsed,
  purgeClosedInvitations,
  type InvitationRow,
} from './invitationRepository';
import type { Invitation, InvitationPage, Membership, NewInvitation } from './schemas';

/**
 * Invitations into a club: created by its leaders (or platform admins), accepted once by any
 * signed-in user who holds the code, revocable until then. The code is shown once, stored only
 * as its SHA-256 and compared in constant time.
 */

/** Open invitations a club may hold at once; the club's expired and used ones are deleted before counting. */
export const MAX_OPEN_INVITATIONS = 50;

const view = (row: InvitationRow): Invitation => ({
  id: row.id,
  clubId: row.clubId,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

export async function createInvitation(
  sql: Sql,
  request: { clubId: string; createdBy: string; expiresInHours: number },
  now: Date = new Date(),
): Promise<NewInvitation> {
  const code = generateInvitationCode();
  const normalised = normaliseInvitationCode(code);
  if (!normalised) throw new Error('a generated invitation code did not normalise');
  const row = await sql.begin(async (tx) => {
    if (!(await lockClubForInvitations(tx, request.clubId))) throw new NotFoundError('No such club.', { code: 'club_not_found' });
    await purgeClosedInvitations(tx, request.clubId, now);
    if ((await countInvitations(tx, request.clubId)) >= MAX_OPEN_INVITATIONS) {
      throw new ConflictError(`The club already has ${MAX_OPEN_INVITATIONS} open invitations; revoke one or wait for one to expire.`, {
        code: 'invitation_cap',
      });
    }
    return insertInvitation(tx, {
      clubId: request.clubId,
      codeHash: hashInvitationCode(normalised),
      createdBy: request.createdBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + request.expiresInHours * 3_600_000),
    });
  });
  return { ...view(row), code };
}

export async function listInvitations(
  sql: Sql,
  query: { clubId: string; limit: number; cursor?: [string, string] | undefined },
  now: Date = new Date(),
): Promise<InvitationPage> {
  const after = query.cursor ? { createdAt: query.cursor[0], id: query.cursor[1] } : undefined;
  const rows = await listOpenInvitations(sql, { clubId: query.clubId, now, limit: query.limit, after });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(view),
    nextCursor: rows.length > query.limit && last ? invitationListCursor.encode([last.cursorAt, last.id]) : null,
  };
}

/** Revokes (deletes) an invitation of the club; another club's invitation is not found. */
export async function revokeInvitation(sql: Sql, clubId: string, invitationId: string): Promise<void> {
  if (!(await deleteInvitation(sql, clubId, invitationId))) {
    throw new NotFoundError('No such invitation in this club.', { code: 'invitation_not_found' });
  }
}

/**
 * The holder of the code becomes a member of the club. One transaction locks the invitation,
 * checks it, inserts the membership and marks the code used: of two accepts of one code, the
 * second waits for the first and finds it used. Someone who already belongs to the club does not
 * use up the code. The newcomer is welcomed and the invitation's creator told, in the same transaction.
 */
export async function acceptInvitation(sql: Sql, userId: string, code: string, now: Date = new Date()): Promise<Membership> {
  const normalised = normaliseInvitationCode(code);
  if (!normalised) throw new InvalidError('This is not an invitation code.', [{ path: 'code', message: 'must be an invitation code' }]);
  const presented = hashInvitationCode(normalised);
  return sql.begin(async (tx) => {
    const invitation = await findInvitationByHashForUpdate(tx, presented);
    if (!invitation || !digestsMatch(invitation.codeHash, presented)) {
      throw new NotFoundError('No such invitation: the code is unknown or was revoked.', { code: 'invitation_not_found' });
    }
    if (invitation.usedAt) throw new ConflictError('This invitation has been used already.', { code: 'invitation_used' });
    if (invitation.expiresAt.getTime() <= now.getTime()) {
      throw new ConflictError('This invitation has expired; ask the club for a new one.', { code: 'invitation_expired' });
    }
    const membership = await insertMember(tx, invitation.clubId, userId, now);
    if (!membership) throw new ConflictError('You are a member of this club already.', { code: 'already_member' });
    await markInvitationUsed(tx, invitation.id, userId, now);
    await noticeMembership(tx, 'joined', invitation.clubId, userId);
    if (invitation.createdBy !== userId) await noticeMembership(tx, 'invitationAccepted', invitation.clubId, invitation.createdBy);
    return { clubId: membership.clubId, userId: membership.userId, role: membership.role, since: membership.since.toISOString() };
  });
}
