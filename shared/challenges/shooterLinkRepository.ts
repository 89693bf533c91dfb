import type { Queryable } from '../db/client';
import type { LinkStatus, ShooterLink } from './schemas';

const LINK_JSON = `json_build_object('id', l.id, 'clubId', l.club_id, 'userId', l.user_id, 'shooterId', l.shooter_id,
  'shooterName', s.display_name, 'status', l.status,
  'requestedAt', to_char(l.requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'decidedAt', to_char(l.decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
const LINK_FROM = `challenge_shooter_link l join club c on c.id = l.club_id
  left join club_data_shooter s on s.source_club_id = c.vereins_id and s.source_record_id = l.shooter_id`;

export async function findLink(sql: Queryable, id: string): Promise<ShooterLink | undefined> {
  const [row]: [{ link: ShooterLink }?] =
    await sql`select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)} where l.id = ${id}`;
  return row?.link;
}

/** The live shooter record of the club, and whether a member is already confirmed for it; undefined when there is none. */
export async function findClaimableShooter(sql: Queryable, clubId: string, shooterId: string): Promise<{ taken: boolean } | undefined> {
  const [shooter]: [{ taken: boolean }?] = await sql`
    select exists (select 1 from challenge_shooter_link where club_id = ${clubId} and shooter_id = ${shooterId} and status = 'confirmed') as taken
    from club c join club_data_shooter s on s.source_club_id = c.vereins_id and s.source_record_id = ${shooterId} and not s.deleted
    where c.id = ${clubId}`;
  return shooter;
}

/** A pending claim; unique indexes refuse a second open claim of the member in the club. */
export async function insertClaim(sql: Queryable, clubId: string, userId: string, shooterId: string): Promise<string | undefined> {
  const [row]: [{ id: string }?] = await sql`
    insert into challenge_shooter_link (club_id, user_id, shooter_id) values (${clubId}, ${userId}, ${shooterId}) returning id`;
  return row?.id;
}

/** Who claimed a pending link of the club; undefined when the club has no such pending claim. */
export async function findPendingClaimant(sql: Queryable, clubId: string, linkId: string): Promise<string | undefined> {
  const [row]: [{ userId: string }?] = await sql`
    select user_id as "userId" from challenge_shooter_link where id = ${linkId} and club_id = ${clubId} and status = 'pending'`;
  return row?.userId;
}

/**
 * Decides a pending claim. The claimant never decides their own: the guard is in the statement,
 * so it holds whatever happened since the claimant was read. True when this call decided it.
 */
export async function decidePendingClaim(
  sql: Queryable,
  claim: { clubId: string; linkId: string; deciderId: string; decision: 'confirmed' | 'rejected' },
): Promise<boolean> {
  const [row]: [{ id: string }?] = await sql`
    update challenge_shooter_link set status = ${claim.decision}, decided_at = now(), decided_by = ${claim.deciderId}
    where id = ${claim.linkId} and club_id = ${claim.clubId} and status = 'pending' and user_id <> ${claim.deciderId}
    returning id`;
  return row !== undefined;
}

export async function listLinksOfUser(sql: Queryable, userId: string, limit: number): Promise<ShooterLink[]> {
  const rows = await sql<{ link: ShooterLink }[]>`
    select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)} where l.user_id = ${userId} order by l.requested_at desc, l.id limit ${limit}`;
  return rows.map((row) => row.link);
}

export async function listLinksOfClub(sql: Queryable, clubId: string, status: LinkStatus, limit: number): Promise<ShooterLink[]> {
  const rows = await sql<{ link: ShooterLink }[]>`
    select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)}
    where l.club_id = ${clubId} and l.status = ${status} order by l.requested_at, l.id limit ${limit}`;
  return rows.map((row) => row.link);
}
