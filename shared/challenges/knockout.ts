/**
 * Knockout payout by final place (1-based, within one club's board): the winner gets the
 * template's rewardXp, the next `finalists` places the lower finalistXp; both complete the
 * challenge and so earn its badge (the spec: completion grants the rewardBadge with the XP).
 * Everyone else fails.
 */
export type KnockoutOutcome = { placement: 'winner' | 'finalist'; xp: number; badge: true } | { placement: 'out' };

export function knockoutOutcome(place: number, rewardXp: number, knockout: { finalists: number; finalistXp: number }): KnockoutOutcome {
  if (place === 1) return { placement: 'winner', xp: rewardXp, badge: true };
  if (place >= 2 && place <= 1 + knockout.finalists)
    return { placement: 'finalist', xp: Math.min(knockout.finalistXp, rewardXp - 1), badge: true };
  return { placement: 'out' };
}
