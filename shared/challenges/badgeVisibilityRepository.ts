import type { Queryable } from '../db/client';
import { listEarnedBadges, type EarnedBadgeRow } from './badgeRepository';
import type { BadgePreferences } from './memberSchemas';

/**
 * Whether others see the badges a user earned in private challenges (participations sharing with
 * nobody), stored in challenge_badge_preference; and the badges one viewer may see of another.
 */

export async function getBadgePreferences(sql: Queryable, userId: string): Promise<BadgePreferences> {
  const [row]: [BadgePreferences?] = await sql`
    select show_private_badges as "showPrivateBadges" from challenge_badge_preference where user_id = ${userId}`;
  return row ?? { showPrivateBadges: false };
}

export async function putBadgePreferences(sql: Queryable, userId: string, preferences: BadgePreferences): Promise<BadgePreferences> {
  await sql`
    insert into challenge_badge_preference (user_id, show_private_badges) values (${userId}, ${preferences.showPrivateBadges})
    on conflict (user_id) do update set show_private_badges = excluded.show_private_badges, updated_at = now()`;
  return preferences;
}

/**
 * The owner's badges that `viewerId` may see, oldest first. A badge is as visible as the
 * participation it was earned in: shared globally, everyone signed in; shared within the club,
 * the members of that participation's club. A badge from a private participation is shown only
 * when the owner chose to show such badges, and then to members of a club the owner belongs to;
 * it never reveals the private score, only that the badge was earned.
 */
export function listBadgesVisibleTo(sql: Queryable, ownerId: string, viewerId: string): Promise<EarnedBadgeRow[]> {
  return listEarnedBadges(
    sql,
    ownerId,
    sql`(
      p.share_globally
      or (p.share_within_club and p.club_id in (select club_id from club_membership where user_id = ${viewerId}))
      or (not p.share_within_club and not p.share_globally
          and coalesce((select show_private_badges from challenge_badge_preference where user_id = ${ownerId}), false)
          and exists (select 1 from club_membership mine join club_membership theirs on theirs.club_id = mine.club_id
                      where mine.user_id = ${ownerId} and theirs.user_id = ${viewerId})))`,
  );
}

/** Whether two users are members of one club (any role). */
export async function sharesAClub(sql: Queryable, a: string, b: string): Promise<boolean> {
  const [row]: [{ shared: boolean }?] = await sql`
    select exists (select 1 from club_membership mine join club_membership theirs on theirs.club_id = mine.club_id
                   where mine.user_id = ${a} and theirs.user_id = ${b}) as shared`;
  return row?.shared ?? false;
}
