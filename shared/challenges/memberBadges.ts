import type { Queryable } from '../db/client';
import { isPlatformAdmin, type Actor } from './access';
import { groupBadges } from './achievements';
import { listEarnedBadges } from './badgeRepository';
import { listBadgesVisibleTo } from './badgeVisibilityRepository';
import type { MemberBadges } from './memberSchemas';

/**
 * Another user's badges as the viewer may see them (badgeVisibilityRepository has the rules);
 * the user themself and platform admins see all. An unknown user has no badges, so the answer
 * cannot tell who exists.
 */
export async function badgesOfMember(sql: Queryable, viewer: Actor, userId: string): Promise<MemberBadges> {
  const seesAll = viewer.userId === userId || isPlatformAdmin(viewer);
  const badges = seesAll ? await listEarnedBadges(sql, userId) : await listBadgesVisibleTo(sql, userId, viewer.userId);
  return { userId, badgeGroups: groupBadges(badges) };
}
