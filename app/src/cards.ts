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

const DAY_MS = 86_400_000;

/** Whole days until `iso` (a part of a day counts as one); 0 once it has passed. */
export function daysLeft(iso: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / DAY_MS));
}

/** A completion worth a celebration: finished within the last week and not celebrated on this device yet. */
export interface Completion {
  participationId: string;
  finishedAt: string;
}

export function toCelebrate<C extends Completion>(completions: readonly C[], seen: readonly string[], now: Date): C | undefined {
  return completions.find(
    (completion) => !seen.includes(completion.participationId) && now.getTime() - Date.parse(completion.finishedAt) < 7 * DAY_MS,
  );
}
