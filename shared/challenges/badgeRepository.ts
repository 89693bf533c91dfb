import type { Fragment } from 'postgres';
import type { Queryable } from '../db/client';
import { bothLanguages, type BilingualText, type LocalizedText } from '../i18n/localizedText';
import type { BadgeDefinition } from './presets';
import type { Tier } from './tiers';

/** The badge registry (challenge_badge) and the badges users earned (challenge_user_badge). */

export async function findBadgeKey(sql: Queryable, key: string): Promise<string | undefined> {
  const [badge]: [{ key: string }?] = await sql`select key from challenge_badge where key = ${key}`;
  return badge?.key;
}

/** Upserts a registry badge; its German texts are the ones shown where a language has none. */
export async function upsertBadge(sql: Queryable, badge: BadgeDefinition): Promise<void> {
  await sql`
    insert into challenge_badge (key, name, icon, colour, description, quality, names, descriptions)
    values (${badge.key}, ${badge.name.de}, ${badge.icon}, ${badge.colour}, ${badge.description.de}, ${badge.quality},
            ${sql.json(badge.name)}, ${sql.json(badge.description)})
    on conflict (key) do update set name = excluded.name, icon = excluded.icon, colour = excluded.colour,
      description = excluded.description, quality = excluded.quality, names = excluded.names,
      descriptions = excluded.descriptions, updated_at = now()`;
}

/**
 * Awards the badge for the participation unless the user holds it from that challenge already
 * (the primary key user, badge, challenge); the badge's name in both languages when this call
 * awarded it.
 */
export async function awardBadge(
  sql: Queryable,
  award: { userId: string; badgeKey: string; challengeId: string; participationId: string },
): Promise<BilingualText | undefined> {
  const [badge]: [{ name: string; names: LocalizedText }?] = await sql`
    with earned as (
      insert into challenge_user_badge (user_id, badge_key, challenge_id, participation_id)
      select ${award.userId}, key, ${award.challengeId}, ${award.participationId} from challenge_badge where key = ${award.badgeKey}
      on conflict do nothing
      returning badge_key
    )
    select b.name, b.names from earned join challenge_badge b on b.key = earned.badge_key`;
  return badge ? bothLanguages(badge.names, badge.name) : undefined;
}

/**
 * A badge as a user earned it: its definition, when, in which challenge, and whether that one
 * shared with nobody. `name`, `description` and `challengeTitle` are the texts shown where a
 * language has none of its own in `names`, `descriptions`, `challengeTitles`.
 */
export interface EarnedBadgeRow {
  key: string;
  name: string;
  names: LocalizedText;
  icon: string;
  colour: string;
  description: string;
  descriptions: LocalizedText;
  quality: Tier;
  earnedAt: Date;
  challengeId: string;
  challengeTitle: string;
  challengeTitles: LocalizedText;
  fromPrivateChallenge: boolean;
}

/**
 * A user's badges, oldest first. `visible`, a condition on the participation `p` each was earned
 * in, keeps only those a viewer may see (badgeVisibilityRepository.ts).
 */
export function listEarnedBadges(sql: Queryable, userId: string, visible: Fragment = sql`true`): Promise<EarnedBadgeRow[]> {
  return sql<EarnedBadgeRow[]>`
    select b.key, b.name, b.names, b.icon, b.colour, b.description, b.descriptions, b.quality, ub.earned_at as "earnedAt",
           ub.challenge_id as "challengeId", c.title as "challengeTitle", c.titles as "challengeTitles",
           not (p.share_within_club or p.share_globally) as "fromPrivateChallenge"
    from challenge_user_badge ub
    join challenge_badge b on b.key = ub.badge_key
    join challenge c on c.id = ub.challenge_id
    join challenge_participation p on p.id = ub.participation_id
    where ub.user_id = ${userId} and ${visible}
    order by ub.earned_at, ub.badge_key`;
}
