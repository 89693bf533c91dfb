import type { Sql } from '../db/client';
import { activeParticipationIdsForShooters } from './evaluationRepository';
import { evaluateMany } from './progress';
import { claimTouchedShooters, requeueTouchedShooters } from './touchedShooterRepository';

/**
 * The consumer of the queue of shooters ingest wrote hits for (challenge_progress_touched): puts
 * their shots on the boards within seconds, apart from the ingest invocation, so the ingest
 * checkpoint never waits for an evaluation (docs/challenges.md, "Progress").
 */

export type DrainOutcome = {
  shooters: number;
  evaluated: number;
  completed: number;
};

/**
 * One round: claims up to `limit` shooters (longest waiting first; concurrent drains claim
 * different ones) and evaluates the active participations their hits count for, set-based. The
 * shooters of a round that fails go back on the queue, so the next drain or the sweep still sees them.
 */
export async function evaluateTouchedShooters(sql: Sql, limit: number, now: Date = new Date()): Promise<DrainOutcome> {
  const shooters = await claimTouchedShooters(sql, limit);
  if (shooters.length === 0) return { shooters: 0, evaluated: 0, completed: 0 };
  try {
    return { shooters: shooters.length, ...(await evaluateMany(sql, await activeParticipationIdsForShooters(sql, shooters), now)) };
  } catch (error) {
    await requeueTouchedShooters(sql, shooters).catch(() => undefined);
    throw error;
  }
}

/**
 * Rounds per timer invocation at most (with 200 shooters a round, 2 000 shooters): a burst beyond
 * that waits for the next invocation, seconds later, instead of holding one invocation for long.
 */
export const DRAIN_ROUNDS = 10;

export interface DrainLimits {
  /** Shooters claimed per round; 0 turns the drain off. */
  shooters: number;
  /** Rounds per invocation at most: what a burst leaves waits for the next invocation. */
  rounds: number;
}

/**
 * Drains the queue round after round while a round comes back full, at most `rounds` rounds, each
 * measured at its own start (a later round sees later shots).
 */
export async function drainTouchedShooters(
  sql: Sql,
  limits: DrainLimits,
  clock: () => Date = () => new Date(),
): Promise<DrainOutcome & { rounds: number }> {
  const total = { rounds: 0, shooters: 0, evaluated: 0, completed: 0 };
  if (limits.shooters === 0) return total;
  while (total.rounds < limits.rounds) {
    const round = await evaluateTouchedShooters(sql, limits.shooters, clock());
    total.rounds += 1;
    total.shooters += round.shooters;
    total.evaluated += round.evaluated;
    total.completed += round.completed;
    if (round.shooters < limits.shooters) break;
  }
  return total;
}
