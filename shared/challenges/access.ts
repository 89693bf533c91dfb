import type { Capability } from '../auth/roles';
import { findClubRole } from '../clubs/membershipRepository';
import type { Queryable } from '../db/client';
import { ForbiddenError } from '../errors/domainErrors';
import type { Scope } from './model';

/**
 * Who may do what with challenges, beyond being signed in. Every platform check is a capability
 * (shared/auth/roles.ts), never a role name. The rules raise ForbiddenError; the dispatcher
 * answers 403.
 */
export interface Actor {
  userId: string;
  capabilities: ReadonlySet<Capability>;
}

export const isPlatformAdmin = (actor: Actor) => actor.capabilities.has('platform.admin');

/**
 * The most XP a club leader's challenge may reward: the top of the presets' range (400..1,000),
 * so a leader cannot mint XP for their own club. Platform admins may go up to HARD_MAX_REWARD_XP.
 */
export const LEADER_MAX_REWARD_XP = 1000;
/** The bound of every template's reward, whoever creates it (also the schema's maximum). */
export const HARD_MAX_REWARD_XP = 100_000;

/** The highest rewardXp the actor may set on a template. */
export const maxRewardXpFor = (actor: Actor) => (isPlatformAdmin(actor) ? HARD_MAX_REWARD_XP : LEADER_MAX_REWARD_XP);

/** Platform admins create any scope; a club leader only club challenges of their own club. */
export async function assertMayCreateChallenge(
  sql: Queryable,
  actor: Actor,
  challenge: { scope: Scope; clubId?: string | undefined },
): Promise<void> {
  if (isPlatformAdmin(actor)) return;
  if (challenge.scope !== 'club' || !challenge.clubId)
    throw new ForbiddenError('Only platform admins create global and personal challenges.');
  if ((await findClubRole(sql, challenge.clubId, actor.userId)) !== 'leader') {
    throw new ForbiddenError('Only leaders of this club create its challenges.');
  }
}

/** A user reads their own achievements; platform admins anyone's. */
export function assertMayReadAchievements(actor: Actor, userId: string): void {
  if (userId !== actor.userId && !isPlatformAdmin(actor))
    throw new ForbiddenError('Only platform admins read another user’s achievements.');
}

/** A member claims a shooter record only in a club they belong to. */
export async function assertMayClaimShooter(sql: Queryable, actor: Actor, clubId: string): Promise<void> {
  if (!(await findClubRole(sql, clubId, actor.userId)))
    throw new ForbiddenError('You can only claim a shooter record in a club you belong to.');
}

/**
 * Nobody decides their own claim: a leader confirming their own claim could collect progress
 * from someone else's shots. Another leader of the club or a platform admin decides it.
 */
export function assertNotOwnClaim(claimantId: string, deciderId: string): void {
  if (claimantId === deciderId) {
    throw new ForbiddenError('A claim of your own is decided by another leader of the club or a platform admin.', { code: 'own_claim' });
  }
}

/** A club board is shown to the club's members and to platform admins. */
export async function assertMayViewClubBoard(sql: Queryable, actor: Actor, clubId: string): Promise<void> {
  if (!isPlatformAdmin(actor) && !(await findClubRole(sql, clubId, actor.userId))) {
    throw new ForbiddenError('Club boards are shown to the club’s members.');
  }
}
