import type { Queryable } from '../db/client';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { pickText } from '../i18n/localizedText';
import { listEarnedBadges, type EarnedBadgeRow } from './badgeRepository';
import { getBadgePreferences } from './badgeVisibilityRepository';
import { listRecentCompletions } from './participationRepository';
import type { Achievements, EarnedBadge } from './schemas';
import { TIERS, tierStanding, type Tier } from './tiers';
import { xpTotals } from './xpLedgerRepository';

const RECENT = 10;

/** XP, tier, season, badges by quality and the recent completions of one user, their texts in `language`. */
export async function achievementsOf(sql: Queryable, userId: string, language: Language = DEFAULT_LANGUAGE): Promise<Achievements> {
  const totals = await xpTotals(sql, userId);
  const badges = await listEarnedBadges(sql, userId);
  const completions = await listRecentCompletions(sql, userId, RECENT);
  const preferences = await getBadgePreferences(sql, userId);
  const standing = tierStanding(totals.lifetimeXp);
  return {
    userId,
    ...standing,
    season: totals.season ? { ...totals.season, startsAt: totals.season.startsAt.toISOString() } : null,
    badgeGroups: groupBadges(badges, language),
    showPrivateBadges: preferences.showPrivateBadges,
    recentCompletions: completions.map((row) => ({
      participationId: row.participationId,
      challengeId: row.challengeId,
      title: pickText(row.titles, language, row.title),
      finishedAt: row.finishedAt.toISOString(),
      xp: row.xp,
      placement: row.placement ?? 'completed',
      fromPrivateChallenge: row.private,
      leaderboards: {
        global: `/api/challenges/${encodeURIComponent(row.challengeId)}/leaderboard?scope=global`,
        club: row.clubId
          ? `/api/challenges/${encodeURIComponent(row.challengeId)}/leaderboard?scope=club&clubId=${encodeURIComponent(row.clubId)}`
          : null,
      },
    })),
  };
}

/** Badges by quality, highest first; within a quality in the order given (oldest first); texts in `language`. */
export function groupBadges(badges: readonly EarnedBadgeRow[], language: Language): Achievements['badgeGroups'] {
  const groups = new Map<Tier, EarnedBadge[]>();
  for (const badge of badges) {
    const list = groups.get(badge.quality) ?? [];
    list.push(earnedBadgeView(badge, language));
    groups.set(badge.quality, list);
  }
  return [...TIERS]
    .reverse()
    .filter((quality) => groups.has(quality))
    .map((quality) => ({ quality, badges: groups.get(quality) ?? [] }));
}

function earnedBadgeView(badge: EarnedBadgeRow, language: Language): EarnedBadge {
  return {
    key: badge.key,
    name: pickText(badge.names, language, badge.name),
    icon: badge.icon,
    colour: badge.colour,
    description: pickText(badge.descriptions, language, badge.description),
    quality: badge.quality,
    earnedAt: badge.earnedAt.toISOString(),
    challengeId: badge.challengeId,
    challengeTitle: pickText(badge.challengeTitles, language, badge.challengeTitle),
    fromPrivateChallenge: badge.fromPrivateChallenge,
  };
}
