import type { Queryable } from '../db/client';
import { MICRO_FORMAT } from '../paging/microTimestamp';

/** The club_invitation table (migration 022). Codes are never stored, only their SHA-256. */

export interface InvitationRow {
  id: string;
  clubId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface StoredInvitation extends InvitationRow {
  codeHash: Buffer;
  usedAt: Date | null;
}

const COLUMNS = `id, club_id as "clubId", created_by as "createdBy", created_at as "createdAt", expires_at as "expiresAt"`;

/** Deletes the club's invitations that can no longer be accepted (expired or used). */
export async function purgeClosedInvitations(sql: Queryable, clubId: string, now: Date): Promise<number> {
  const deleted = await sql`delete from club_invitation where club_id = ${clubId} and (used_at is not null or expires_at <= ${now})`;
  return deleted.count;
}

/** Every invitation row the club still has (after a purge: the open ones). */
export async function countInvitations(sql: Queryable, clubId: string): Promise<number> {
  const [row]: [{ count: number }?] = await sql`select count(*)::int as count from club_invitation where club_id = ${clubId}`;
  return row?.count ?? 0;
}

/** Serialises invitation changes of one club until the transaction ends, so the cap holds under concurrent creates. */
export async function lockClubForInvitations(sql: Queryable, clubId: string): Promise<boolean> {
  const [row]: [{ id: string }?] = await sql`select id from club where id = ${clubId} for update`;
  return row !== undefined;
}

export async function insertInvitation(
  sql: Queryable,
  invitation: { clubId: string; codeHash: Buffer; createdBy: string; createdAt: Date; expiresAt: Date },
): Promise<InvitationRow> {
  const [row]: [InvitationRow?] = await sql`
    insert into club_invitation (club_id, code_hash, created_by, created_at, expires_at)
    values (${invitation.clubId}, ${invitation.codeHash}, ${invitation.createdBy}, ${invitation.createdAt}, ${invitation.expiresAt})
    returning ${sql.unsafe(COLUMNS)}`;
  if (!row) throw new Error('invitation insert returned no row');
  return row;
}

/** The club's open invitations (unused, unexpired), newest first, after the keyset position. */
export function listOpenInvitations(
  sql: Queryable,
  query: { clubId: string; now: Date; limit: number; after?: { createdAt: string; id: string } | undefined },
): Promise<(InvitationRow & { cursorAt: string })[]> {
  const { clubId, now, limit, after } = query;
  // `::text` before `::timestamptz`: a parameter the server types as timestamptz is serialised
  // through a JS Date, which drops the microseconds the position was written with.
  return sql<(InvitationRow & { cursorAt: string })[]>`
    select ${sql.unsafe(COLUMNS)}, to_char(created_at at time zone 'UTC', ${MICRO_FORMAT}) as "cursorAt"
    from club_invitation
    where club_id = ${clubId} and used_at is null and expires_at > ${now}
      ${after ? sql`and (created_at, id) < (${after.createdAt}::text::timestamptz, ${after.id})` : sql``}
    order by created_at desc, id desc
    limit ${limit + 1}`;
}

/** Deletes one invitation of the club; false when the club has no such invitation. */
export async function deleteInvitation(sql: Queryable, clubId: string, invitationId: string): Promise<boolean> {
  const deleted = await sql`delete from club_invitation where id = ${invitationId} and club_id = ${clubId}`;
  return deleted.count > 0;
}

/** The invitation with this code digest, locked until the transaction ends (two accepts of one code queue here). */
export async function findInvitationByHashForUpdate(sql: Queryable, codeHash: Buffer): Promise<StoredInvitation | undefined> {
  const [row]: [StoredInvitation?] = await sql`
    select ${sql.unsafe(COLUMNS)}, code_hash as "codeHash", used_at as "usedAt"
    from club_invitation where code_hash = ${codeHash} for update`;
  return row;
}

export async function markInvitationUsed(sql: Queryable, invitationId: string, userId: string, at: Date): Promise<void> {
  await sql`update club_invitation set used_at = ${at}, used_by = ${userId} where id = ${invitationId} and used_at is null`;
}
