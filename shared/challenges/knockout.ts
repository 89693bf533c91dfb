/**
 * Knockout payout by final place (1-based, within one club's board): the winner gets the
 * template's rewardXp and the badge, the next `finalists` places get the lower finalistXp and
 * no badge, everyone else fails.
 */
export type KnockoutOutcome =
  { placement: 'winner'; xp: number; badge: true } | { placement: 'finalist'; xp: number; badge: false } | { placement: 'out' };

export function knockoutOutcome(place: number, rewardXp: number, knockout: { finalists: number; finalistXp: number }): KnockoutOutcome {
  if (place === 1) return { placement: 'winner', xp: rewardXp, badge: true };
  if (place >= 2 && place <= 1 + knockout.finalists)
    return { placement: 'finalist', xp: Math.min(knockout.finalistXp, rewardXp - 1), badge: false };
  return { placement: 'out' };
}
