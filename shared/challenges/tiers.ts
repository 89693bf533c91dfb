/**
 * XP tiers by cumulative (lifetime) XP. Computed from the total on every read, never stored, so a
 * change of thresholds needs no migration.
 */
export const TIERS = ['iron', 'bronze', 'silver', 'gold', 'platinum', 'diamond'] as const;
export type Tier = (typeof TIERS)[number];

/** The lowest XP of each tier. */
export const TIER_THRESHOLDS: Readonly<Record<Tier, number>> = {
  iron: 0,
  bronze: 500,
  silver: 1_500,
  gold: 3_500,
  platinum: 7_000,
  diamond: 12_000,
};

export interface TierStanding {
  tier: Tier;
  xp: number;
  /** null at the top tier. */
  nextTier: Tier | null;
  /** XP at which the next tier starts; null at the top tier. */
  nextTierAt: number | null;
  xpToNextTier: number | null;
  /** Share of the way from this tier's start to the next one's, 0..1 (1 at the top tier). */
  progressToNextTier: number;
}

export function tierOf(xp: number): Tier {
  let current: Tier = 'iron';
  for (const tier of TIERS) if (xp >= TIER_THRESHOLDS[tier]) current = tier;
  return current;
}

export function tierStanding(xp: number): TierStanding {
  const total = Math.max(0, Math.floor(xp));
  const tier = tierOf(total);
  const next = TIERS[TIERS.indexOf(tier) + 1];
  if (!next) return { tier, xp: total, nextTier: null, nextTierAt: null, xpToNextTier: null, progressToNextTier: 1 };
  const start = TIER_THRESHOLDS[tier];
  const end = TIER_THRESHOLDS[next];
  return {
    tier,
    xp: total,
    nextTier: next,
    nextTierAt: end,
    xpToNextTier: end - total,
    progressToNextTier: Math.floor(((total - start) / (end - start)) * 1000) / 1000,
  };
}

/** Orders tiers: negative when a is below b. */
export function compareTiers(a: Tier, b: Tier): number {
  return TIERS.indexOf(a) - TIERS.indexOf(b);
}
