import type { ChallengeListItem } from './types';

/**
 * What a challenge card offers, decided from the one list call (no call per card). Pure, so unit
 * tests import it.
 */
export type CallToAction = 'join' | 'progress' | 'open' | 'rejoin' | 'ended';

export function callToAction(item: ChallengeListItem, now: Date): CallToAction {
  const ended = item.endsAt !== null && Date.parse(item.endsAt) <= now.getTime();
  const participation = item.participation;
  if (!participation) return ended ? 'ended' : 'join';
  if (participation.status === 'active') return 'progress';
  if (participation.status === 'cancelled') return ended ? 'ended' : 'rejoin';
  return 'open';
}

/** Progress as a whole percentage for the bar, 0..100. */
export function percent(fraction: number): number {
  if (!Number.isFinite(fraction)) return 0;
  return Math.max(0, Math.min(100, Math.round(fraction * 100)));
}

/** The board a leaderboard link of this card opens: the club board for club challenges. */
export function defaultBoard(item: Pick<ChallengeListItem, 'scope'>): 'global' | 'club' {
  return item.scope === 'club' ? 'club' : 'global';
}
