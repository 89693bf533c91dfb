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
 * How long one timer invocation goes on starting rounds while the queue has work: long enough that
 * a backlog is drained without a pause between invocations, short enough that the invocation
 * (well inside the host's functionTimeout) ends and the next one, seconds later, takes over.
 */
export const DRAIN_BUDGET_MS = 30_000;

export interface DrainLimits {
  /** Shooters claimed per round; 0 turns the drain off. */
  shooters: number;
  /** No round starts after this many milliseconds of the invocation; a started round finishes. */
  budgetMs: number;
  /**
   * Rounds under way at once, each on a connection of its own (1 when absent). A round spends most
   * of its time waiting for the database, so a second lane uses what the first leaves idle; the
   * claim's `skip locked` hands each lane other shooters, and the store locks its rows in id order,
   * so lanes that share a participation wait for each other instead of deadlocking.
   */
  lanes?: number;
}

/**
 * Drains the queue round after round while a round comes back full, until the budget is spent,
 * each round measured at its own start (a later round sees later shots), in `limits.lanes` lanes
 * at once.
 */
export async function drainTouchedShooters(
  sql: Sql,
  limits: DrainLimits,
  clock: () => Date = () => new Date(),
): Promise<DrainOutcome & { rounds: number }> {
  const total = { rounds: 0, shooters: 0, evaluated: 0, completed: 0 };
  if (limits.shooters === 0) return total;
  const started = clock().getTime();
  const lane = async () => {
    for (;;) {
      const round = await evaluateTouchedShooters(sql, limits.shooters, clock());
      total.rounds += 1;
      total.shooters += round.shooters;
      total.evaluated += round.evaluated;
      total.completed += round.completed;
      if (round.shooters < limits.shooters || clock().getTime() - started >= limits.budgetMs) return;
    }
  };
  // Every lane ends before the invocation does, even when one fails: a failed invocation must not
  // leave rounds running behind the next one.
  const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, limits.lanes ?? 1) }, lane));
  const failed = lanes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return total;
}
