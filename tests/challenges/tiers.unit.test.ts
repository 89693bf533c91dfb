import { tierStanding } from '../../shared/challenges/tiers';

describe('XP tiers', () => {
  it.each([
    [0, 'iron', 'bronze', 500, 500, 0],
    [499, 'iron', 'bronze', 500, 1, 0.998],
    [500, 'bronze', 'silver', 1500, 1000, 0],
    [1499, 'bronze', 'silver', 1500, 1, 0.999],
    [1500, 'silver', 'gold', 3500, 2000, 0],
    [3499, 'silver', 'gold', 3500, 1, 0.999],
    [3500, 'gold', 'platinum', 7000, 3500, 0],
    [6999, 'gold', 'platinum', 7000, 1, 0.999],
    [7000, 'platinum', 'diamond', 12000, 5000, 0],
    [11999, 'platinum', 'diamond', 12000, 1, 0.999],
  ])('%i XP is %s, %s from %i (%i to go, progress %f)', (xp, tier, nextTier, nextTierAt, toGo, progress) => {
    expect(tierStanding(xp)).toEqual({ tier, xp, nextTier, nextTierAt, xpToNextTier: toGo, progressToNextTier: progress });
  });

  it('halfway through silver is progress 0.5', () => {
    expect(tierStanding(2500).progressToNextTier).toBe(0.5);
  });

  it.each([12000, 12001, 1_000_000])('%i XP is diamond with nothing above', (xp) => {
    expect(tierStanding(xp)).toEqual({ tier: 'diamond', xp, nextTier: null, nextTierAt: null, xpToNextTier: null, progressToNextTier: 1 });
  });
});
