import type { Sql } from '../db/client';
import { bothLanguages } from '../i18n/localizedText';
import { payReward, notifyFailed } from './payout';
import { isGoalMet, progressFraction, type Measurement, type Rules } from './rules';
import {
  activeParticipationIdsAfter,
  activeParticipationIdsForClubs,
  activeParticipationIdsForShooters,
  failActiveParticipation,
  findActiveParticipation,
  storeProgress,
  type StoredResult,
} from './evaluationRepository';
import { measureShots, type ShotStats } from './shotDataRepository';
import { claimTouchedShooters, forgetTouchedBefore, requeueTouchedShooters } from './touchedShooterRepository';

export type EvaluationOutcome = 'completed' | 'progressed' | 'unchanged' | 'inactive';

/** The metric's value from the stats of the window. */
export function measurementOf(rules: Rules, stats: ShotStats): Measurement {
  switch (rules.goal.metric) {
    case 'shots':
      return { value: stats.shots, shots: stats.shots };
    case 'sessions':
      return { value: stats.sessions, shots: stats.shots };
    case 'averageRing':
      return { value: stats.averageRing ?? 0, shots: stats.shots };
    case 'bestSeries':
      return { value: stats.bestSeries ?? 0, shots: stats.shots };
  }
}

/** The shots that count: from joining (or the last N days) until now, never past the deadline. */
export function windowOf(rules: Rules, joinedAt: Date, deadlineAt: Date, now: Date): { from: Date; to: Date } {
  const to = new Date(Math.min(now.getTime(), deadlineAt.getTime()));
  if (rules.window.type === 'participation') return { from: joinedAt, to };
  const from = new Date(Math.max(joinedAt.getTime(), to.getTime() - rules.window.days * 86_400_000));
  return { from, to };
}

/**
 * Re-measures one active participation from the shot data and stores its progress and score.
 * When the goal is met (knockout goals never complete early) the same guarded UPDATE moves it to
 * `completed`, and only the transaction whose UPDATE did that pays: any number of concurrent
 * evaluations of one participation pay once.
 */
export async function evaluateParticipation(sql: Sql, participationId: string, now: Date = new Date()): Promise<EvaluationOutcome> {
  const participation = await findActiveParticipation(sql, participationId);
  if (!participation) return 'inactive';
  const { rules } = participation;
  const window = windowOf(rules, participation.joinedAt, participation.deadlineAt, now);
  const stats = await measureShots(sql, {
    userId: participation.userId,
    clubId: participation.scope === 'club' ? participation.challengeClubId : null,
    from: window.from,
    to: window.to,
    discipline: rules.discipline ?? null,
  });
  const measurement = measurementOf(rules, stats);
  const met = !rules.knockout && isGoalMet(rules.goal, measurement);
  const progress = {
    metric: rules.goal.metric,
    value: measurement.value,
    target: rules.goal.target,
    fraction: progressFraction(rules.goal, measurement),
    shots: stats.shots,
    sessions: stats.sessions,
    evaluatedAt: now.toISOString(),
  };
  const result: StoredResult | null = met ? { placement: 'completed', xp: participation.rewardXp, badge: rules.rewardBadge ?? null } : null;
  return sql.begin(async (tx) => {
    const status = await storeProgress(tx, {
      participationId: participation.id,
      progress,
      result,
      score: measurement.value,
      met,
      now,
    });
    if (status === undefined) return 'inactive';
    if (status !== 'completed') return 'progressed';
    await payReward(tx, {
      userId: participation.userId,
      participationId: participation.id,
      challengeId: participation.challengeId,
      challengeTitle: bothLanguages(participation.titles, participation.title),
      xp: participation.rewardXp,
      badgeKey: rules.rewardBadge ?? null,
      placement: 'completed',
    });
    return 'completed';
  });
}

/** Evaluates each id in turn; answers how many completed. */
async function evaluateMany(sql: Sql, ids: readonly string[], now: Date): Promise<{ evaluated: number; completed: number }> {
  let completed = 0;
  for (const id of ids) {
    if ((await evaluateParticipation(sql, id, now)) === 'completed') completed += 1;
  }
  return { evaluated: ids.length, completed };
}

/**
 * The entry point for ingest: re-evaluates the active participations of every member linked to
 * a shooter in one of these clubs (club numbers, as in club_data_hit.source_club_id).
 */
export async function evaluateProgressForClubs(
  sql: Sql,
  clubNumbers: readonly string[],
  now: Date = new Date(),
): Promise<{ evaluated: number; completed: number }> {
  if (clubNumbers.length === 0) return { evaluated: 0, completed: 0 };
  return evaluateMany(sql, await activeParticipationIdsForClubs(sql, clubNumbers), now);
}

/**
 * Right after ingest applied a batch: the participations of up to `limit` shooters its hits were
 * written for (the queue the apply filled in the same transaction), so a shot is on the board in
 * seconds. Bounded, so the invocation (and its checkpoint) waits only so long; what is left waits
 * for the next batch's drain or the sweep. Shooters of a drain that fails go back on the queue.
 */
export async function evaluateTouchedShooters(
  sql: Sql,
  limit: number,
  now: Date = new Date(),
): Promise<{ shooters: number; evaluated: number; completed: number }> {
  const shooters = await claimTouchedShooters(sql, limit);
  if (shooters.length === 0) return { shooters: 0, evaluated: 0, completed: 0 };
  try {
    return { shooters: shooters.length, ...(await evaluateMany(sql, await activeParticipationIdsForShooters(sql, shooters), now)) };
  } catch (error) {
    await requeueTouchedShooters(sql, shooters).catch(() => undefined);
    throw error;
  }
}

const BATCH = 500;

/**
 * The timer's sweep: every active participation, in id order, a batch at a time. The shooters
 * queued for evaluation before it started are covered by it and leave the queue.
 */
export async function evaluateAllActive(sql: Sql, now: Date = new Date()): Promise<{ evaluated: number; completed: number }> {
  // The database's clock, as the queue's touched_at is (the start of the apply that queued a
  // shooter). A shooter queued shortly before the sweep may belong to an apply not yet committed,
  // whose hits the sweep might miss: those minutes stay queued for the next drain.
  const [{ started } = { started: new Date(0) }] = await sql<
    { started: Date }[]
  >`select clock_timestamp() - interval '5 minutes' as started`;
  let after = '';
  const total = { evaluated: 0, completed: 0 };
  for (;;) {
    const ids = await activeParticipationIdsAfter(sql, after, BATCH);
    if (ids.length === 0) {
      await forgetTouchedBefore(sql, started);
      return total;
    }
    const outcome = await evaluateMany(sql, ids, now);
    total.evaluated += outcome.evaluated;
    total.completed += outcome.completed;
    after = ids[ids.length - 1] ?? after;
  }
}

/** Marks one participation failed if it is still active; notifies only when this call did it. */
export async function failParticipation(sql: Sql, participationId: string, now: Date): Promise<boolean> {
  return sql.begin(async (tx) => {
    const row = await failActiveParticipation(tx, participationId, now);
    if (!row) return false;
    await notifyFailed(tx, row.userId, bothLanguages(row.titles, row.title));
    return true;
  });
}
