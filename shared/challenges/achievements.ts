import type { Queryable } from '../db/client';
import { listEarnedBadges, type EarnedBadgeRow } from './badgeRepository';
import { getBadgePreferences } from './badgeVisibilityRepository';
import { listRecentCompletions } from './participationRepository';
import type { Achievements, EarnedBadge } from './schemas';
import { TIERS, tierStanding, type Tier } from './tiers';
import { xpTotals } from './xpLedgerRepository';

const RECENT = 10;

/** XP, tier, season, badges by quality and the recent completions of one user. */
export async function achievementsOf(sql: Queryable, userId: string): Promise<Achievements> {
  const totals = await xpTotals(sql, userId);
  const badges = await listEarnedBadges(sql, userId);
  const completions = await listRecentCompletions(sql, userId, RECENT);
  const preferences = await getBadgePreferences(sql, userId);
  const standing = tierStanding(totals.lifetimeXp);
  return {
    userId,
    ...standing,
    season: totals.season ? { ...totals.season, startsAt: totals.season.startsAt.toISOString() } : null,
    badgeGroups: groupBadges(badges),
    showPrivateBadges: preferences.showPrivateBadges,
    recentCompletions: completions.map((row) => ({
      participationId: row.participationId,
      challengeId: row.challengeId,
      title: row.title,
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

/** Badges by quality, highest first; within a quality in the order given (oldest first). */
export function groupBadges(badges: readonly EarnedBadgeRow[]): Achievements['badgeGroups'] {
  const groups = new Map<Tier, EarnedBadge[]>();
  for (const badge of badges) {
    const list = groups.get(badge.quality) ?? [];
    list.push({ ...badge, earnedAt: badge.earnedAt.toISOString() });
    groups.set(badge.quality, list);
  }
  return [...TIERS]
    .reverse()
    .filter((quality) => groups.has(quality))
    .map((quality) => ({ quality, badges: groups.get(quality) ?? [] }));
}
