import type { Queryable } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { ConflictError, NotFoundError } from '../errors/domainErrors';
import { displayNamesOf } from '../people/profileRepository';
import { personName } from '../people/names';
import { assertNotOwnClaim } from './access';
import type { ClubShooterLink } from './responses';
import type { LinkStatus, ShooterLink } from './schemas';
import {
  decidePendingClaim,
  findClaimableShooter,
  findLink,
  findPendingClaimant,
  insertClaim,
  listLinksOfClub,
  listLinksOfUser,
} from './shooterLinkRepository';

/**
 * The member <-> shooter link. Shot data names shooters by the club software's id; the service
 * knows users. A member claims the shooter record that is theirs in one of their clubs; another
 * leader of that club or a platform admin confirms (or rejects) the claim, never the claimant.
 * Only confirmed links feed progress. One open claim per member and club, one confirmed member
 * per shooter.
 */

/** Lists are bounded: a club reviews its oldest claims first, a member has few links. */
const LIST_LIMIT = 100;

const takenError = () => new ConflictError('Another member is already linked to this shooter record.', { code: 'shooter_taken' });

/** A member claims a shooter record of their club (membership: assertMayClaimShooter). */
export async function claimShooter(sql: Queryable, clubId: string, userId: string, shooterId: string): Promise<ShooterLink> {
  const shooter = await findClaimableShooter(sql, clubId, shooterId);
  if (!shooter) throw new NotFoundError('The club has no such shooter record.', { code: 'shooter_not_found' });
  if (shooter.taken) throw takenError();
  let id: string | undefined;
  try {
    id = await insertClaim(sql, clubId, userId, shooterId);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError('You already have an open or confirmed link in this club.', { code: 'link_exists' });
    throw error;
  }
  const link = id && (await findLink(sql, id));
  if (!link) throw new NotFoundError('No such link.');
  return link;
}

/** The caller's links in every club. */
export function listOwnLinks(sql: Queryable, userId: string): Promise<ShooterLink[]> {
  return listLinksOfUser(sql, userId, LIST_LIMIT);
}

/** A club's links in one status, oldest first (for the leader's review), each with the claimant's name. */
export async function listClubLinks(sql: Queryable, clubId: string, status: LinkStatus): Promise<ClubShooterLink[]> {
  const links = await listLinksOfClub(sql, clubId, status, LIST_LIMIT);
  const names = await displayNamesOf(
    sql,
    links.map((link) => link.userId),
  );
  return links.map((link) => ({ ...link, ...personName(names.get(link.userId)) }));
}

/** A leader of the club (or a platform admin) decides a pending claim that is not their own. */
export async function decideLink(
  sql: Queryable,
  clubId: string,
  linkId: string,
  deciderId: string,
  decision: 'confirmed' | 'rejected',
): Promise<ShooterLink> {
  const notPending = () => new NotFoundError('No pending claim with this id in this club.', { code: 'link_not_found' });
  const claimant = await findPendingClaimant(sql, clubId, linkId);
  if (claimant === undefined) throw notPending();
  assertNotOwnClaim(claimant, deciderId);
  try {
    if (!(await decidePendingClaim(sql, { clubId, linkId, deciderId, decision }))) throw notPending();
  } catch (error) {
    if (isUniqueViolation(error)) throw takenError();
    throw error;
  }
  const link = await findLink(sql, linkId);
  if (!link) throw new NotFoundError('No such link.');
  return link;
}
