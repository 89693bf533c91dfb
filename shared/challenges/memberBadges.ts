import type { Queryable } from '../db/client';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { personName } from '../people/names';
import { displayNamesOf } from '../people/profileRepository';
import { isPlatformAdmin, type Actor } from './access';
import { groupBadges } from './achievements';
import { listEarnedBadges } from './badgeRepository';
import { listBadgesVisibleTo, sharesAClub } from './badgeVisibilityRepository';
import type { MemberBadges } from './memberSchemas';
import { getSharingPreferences } from './participationRepository';
import { tierOf } from './tiers';
import { xpTotals } from './xpLedgerRepository';

/**
 * Another user's public profile as the viewer may see it: the badges (badgeVisibilityRepository
 * has the rules) and the lifetime XP and tier under the XP ladders' opt-in (shared globally:
 * everyone; shared within the club: whoever is in one of their clubs). The user themself and
 * platform admins see all. An unknown user has no badges and no XP shown, so the answer cannot
 * tell who exists. The name is shown under the same rules: when the viewer sees all, or sees the
 * member's standing or at least one of their badges; otherwise it is null as for someone nameless.
 */
export async function badgesOfMember(
  sql: Queryable,
  viewer: Actor,
  userId: string,
  language: Language = DEFAULT_LANGUAGE,
): Promise<MemberBadges> {
  const seesAll = viewer.userId === userId || isPlatformAdmin(viewer);
  const badges = seesAll ? await listEarnedBadges(sql, userId) : await listBadgesVisibleTo(sql, userId, viewer.userId);
  const standing = seesAll || (await sharesStandingWith(sql, userId, viewer.userId)) ? await standingOf(sql, userId) : null;
  const shown = seesAll || standing !== null || badges.length > 0;
  const name = shown ? (await displayNamesOf(sql, [userId])).get(userId) : undefined;
  return { userId, ...personName(name), standing, badgeGroups: groupBadges(badges, language) };
}

async function sharesStandingWith(sql: Queryable, ownerId: string, viewerId: string): Promise<boolean> {
  const sharing = await getSharingPreferences(sql, ownerId);
  if (sharing.shareGlobally) return true;
  return sharing.shareWithinClub && (await sharesAClub(sql, ownerId, viewerId));
}

async function standingOf(sql: Queryable, userId: string): Promise<MemberBadges['standing']> {
  const { lifetimeXp } = await xpTotals(sql, userId);
  return { xp: lifetimeXp, tier: tierOf(lifetimeXp) };
}
