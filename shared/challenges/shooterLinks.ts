import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { ConflictError, NotFoundError } from '../errors/domainErrors';

/**
 * The member <-> shooter link. Shot data names shooters by the club software's id; the service
 * knows users. A member claims the shooter record that is theirs in one of their clubs; a leader
 * of that club confirms (or rejects) the claim. Only confirmed links feed progress. One open
 * claim per member and club, one confirmed member per shooter.
 */

export const LINK_STATUSES = ['pending', 'confirmed', 'rejected'] as const;

export const ShooterLinkSchema = v.pipe(
  v.object({
    id: v.string(),
    clubId: v.string(),
    userId: v.string(),
    shooterId: v.string(),
    shooterName: v.nullable(v.string()),
    status: v.picklist(LINK_STATUSES),
    requestedAt: v.pipe(v.string(), v.isoTimestamp()),
    decidedAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  }),
  v.title('ShooterLink'),
);
export type ShooterLink = v.InferOutput<typeof ShooterLinkSchema>;

const LINK_JSON = `json_build_object('id', l.id, 'clubId', l.club_id, 'userId', l.user_id, 'shooterId', l.shooter_id,
  'shooterName', s.display_name, 'status', l.status,
  'requestedAt', to_char(l.requested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'decidedAt', to_char(l.decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
const LINK_FROM = `challenge_shooter_link l join club c on c.id = l.club_id
  left join club_data_shooter s on s.source_club_id = c.vereins_id and s.source_record_id = l.shooter_id`;

async function linkById(sql: Queryable, id: string): Promise<ShooterLink | undefined> {
  const [row]: [{ link: ShooterLink }?] =
    await sql`select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)} where l.id = ${id}`;
  return row?.link;
}

/** A member claims a shooter record of their club (the caller's membership is checked by the route guard). */
export async function claimShooter(sql: Queryable, clubId: string, userId: string, shooterId: string): Promise<ShooterLink> {
  const [shooter]: [{ taken: boolean }?] = await sql`
    select exists (select 1 from challenge_shooter_link where club_id = ${clubId} and shooter_id = ${shooterId} and status = 'confirmed') as taken
    from club c join club_data_shooter s on s.source_club_id = c.vereins_id and s.source_record_id = ${shooterId} and not s.deleted
    where c.id = ${clubId}`;
  if (!shooter) throw new NotFoundError('The club has no such shooter record.', { code: 'shooter_not_found' });
  if (shooter.taken) throw new ConflictError('Another member is already linked to this shooter record.', { code: 'shooter_taken' });
  try {
    const [row]: [{ id: string }?] = await sql`
      insert into challenge_shooter_link (club_id, user_id, shooter_id) values (${clubId}, ${userId}, ${shooterId}) returning id`;
    const link = row && (await linkById(sql, row.id));
    if (!link) throw new NotFoundError('No such link.');
    return link;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError('You already have an open or confirmed link in this club.', { code: 'link_exists' });
    throw error;
  }
}

/** The caller's links in every club. */
export async function listOwnLinks(sql: Queryable, userId: string): Promise<ShooterLink[]> {
  const rows = await sql<{ link: ShooterLink }[]>`
    select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)} where l.user_id = ${userId} order by l.requested_at desc, l.id limit 100`;
  return rows.map((row) => row.link);
}

/** A club's links in one status, oldest first (for the leader's review), at most 100. */
export async function listClubLinks(sql: Queryable, clubId: string, status: (typeof LINK_STATUSES)[number]): Promise<ShooterLink[]> {
  const rows = await sql<{ link: ShooterLink }[]>`
    select ${sql.unsafe(LINK_JSON)} as link from ${sql.unsafe(LINK_FROM)}
    where l.club_id = ${clubId} and l.status = ${status} order by l.requested_at, l.id limit 100`;
  return rows.map((row) => row.link);
}

/** A leader decides a pending claim of their club. */
export async function decideLink(
  sql: Queryable,
  clubId: string,
  linkId: string,
  leaderId: string,
  decision: 'confirmed' | 'rejected',
): Promise<ShooterLink> {
  try {
    const [row]: [{ id: string }?] = await sql`
      update challenge_shooter_link set status = ${decision}, decided_at = now(), decided_by = ${leaderId}
      where id = ${linkId} and club_id = ${clubId} and status = 'pending'
      returning id`;
    if (!row) throw new NotFoundError('No pending claim with this id in this club.', { code: 'link_not_found' });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError('Another member is already linked to this shooter record.', { code: 'shooter_taken' });
    throw error;
  }
  const link = await linkById(sql, linkId);
  if (!link) throw new NotFoundError('No such link.');
  return link;
}
