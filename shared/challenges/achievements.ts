import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { TIERS, tierStanding, type Tier } from './tiers';
import { xpTotals } from './xpLedger';

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const EarnedBadgeSchema = v.pipe(
  v.object({
    key: v.string(),
    name: v.string(),
    icon: v.string(),
    colour: v.string(),
    description: v.string(),
    quality: v.picklist(TIERS),
    earnedAt: timestamp,
    challengeId: v.string(),
    challengeTitle: v.string(),
    /** The participation it came from shares with nobody (neither within the club nor globally). */
    fromPrivateChallenge: v.boolean(),
  }),
  v.title('EarnedBadge'),
);

export const AchievementsSchema = v.pipe(
  v.object({
    userId: v.string(),
    xp: v.number(),
    tier: v.picklist(TIERS),
    nextTier: v.nullable(v.picklist(TIERS)),
    nextTierAt: v.nullable(v.number()),
    xpToNextTier: v.nullable(v.number()),
    progressToNextTier: v.number(),
    season: v.nullable(v.object({ id: v.string(), name: v.string(), startsAt: timestamp, xp: v.number() })),
    /** Highest quality first; within a quality, oldest first. */
    badgeGroups: v.array(v.object({ quality: v.picklist(TIERS), badges: v.array(EarnedBadgeSchema) })),
    recentCompletions: v.array(
      v.object({
        participationId: v.string(),
        challengeId: v.string(),
        title: v.string(),
        finishedAt: timestamp,
        xp: v.number(),
        placement: v.string(),
        fromPrivateChallenge: v.boolean(),
        leaderboards: v.object({ global: v.string(), club: v.nullable(v.string()) }),
      }),
    ),
  }),
  v.title('Achievements'),
);
export type Achievements = v.InferOutput<typeof AchievementsSchema>;

const RECENT = 10;

export async function achievementsOf(sql: Queryable, userId: string): Promise<Achievements> {
  const totals = await xpTotals(sql, userId);
  const badges = await sql<(v.InferOutput<typeof EarnedBadgeSchema> & { earnedAtDate: Date })[]>`
    select b.key, b.name, b.icon, b.colour, b.description, b.quality, ub.earned_at as "earnedAtDate",
           ub.challenge_id as "challengeId", c.title as "challengeTitle",
           not (p.share_within_club or p.share_globally) as "fromPrivateChallenge"
    from challenge_user_badge ub
    join challenge_badge b on b.key = ub.badge_key
    join challenge c on c.id = ub.challenge_id
    join challenge_participation p on p.id = ub.participation_id
    where ub.user_id = ${userId}
    order by ub.earned_at, ub.badge_key`;
  const completions = await sql<
    {
      participationId: string;
      challengeId: string;
      title: string;
      finishedAt: Date;
      xp: number;
      placement: string | null;
      private: boolean;
      clubId: string | null;
    }[]
  >`
    select p.id as "participationId", p.challenge_id as "challengeId", c.title, p.finished_at as "finishedAt",
           coalesce((p.result->>'xp')::int, p.reward_xp) as xp, p.result->>'placement' as placement,
           not (p.share_within_club or p.share_globally) as private, p.club_id as "clubId"
    from challenge_participation p join challenge c on c.id = p.challenge_id
    where p.user_id = ${userId} and p.status = 'completed'
    order by p.finished_at desc, p.id limit ${RECENT}`;
  const standing = tierStanding(totals.lifetimeXp);
  const groups = new Map<Tier, v.InferOutput<typeof EarnedBadgeSchema>[]>();
  for (const { earnedAtDate, ...badge } of badges) {
    const list = groups.get(badge.quality) ?? [];
    list.push({ ...badge, earnedAt: earnedAtDate.toISOString() });
    groups.set(badge.quality, list);
  }
  return {
    userId,
    ...standing,
    season: totals.season ? { ...totals.season, startsAt: totals.season.startsAt.toISOString() } : null,
    badgeGroups: [...TIERS]
      .reverse()
      .filter((quality) => groups.has(quality))
      .map((quality) => ({ quality, badges: groups.get(quality) ?? [] })),
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
