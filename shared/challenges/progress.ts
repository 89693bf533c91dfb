import type { Sql } from '../db/client';
import { bothLanguages } from '../i18n/localizedText';
import { payReward, notifyFailed } from './payout';
import { isGoalMet, progressFraction, type Measurement, type Rules } from './rules';
import { activeParticipationIdsAfter, activeParticipationIdsForClubs, failActiveParticipation } from './evaluationRepository';
import { findActiveParticipations, storeProgresses, type ActiveParticipation, type ProgressUpdate } from './progressRepository';
import { measureShotsMany, NO_SHOTS, type ShotScope, type ShotStats } from './shotDataRepository';
import { forgetTouchedBefore } from './touchedShooterRepository';

export type EvaluationOutcome = 'completed' | 'progressed' | 'inactive';

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

/** The participation's shots to measure: its window, and only its challenge's club for a club challenge. */
function scopeOf(participation: ActiveParticipation, now: Date): ShotScope {
  const window = windowOf(participation.rules, participation.joinedAt, participation.deadlineAt, now);
  return {
    userId: participation.userId,
    clubId: participation.scope === 'club' ? participation.challengeClubId : null,
    from: window.from,
    to: window.to,
    discipline: participation.rules.discipline ?? null,
  };
}

/** What to store for a participation measured at `stats` (knockout goals never complete early). */
function updateOf(participation: ActiveParticipation, stats: ShotStats, now: Date): ProgressUpdate {
  const { rules } = participation;
  const measurement = measurementOf(rules, stats);
  const met = !rules.knockout && isGoalMet(rules.goal, measurement);
  return {
    participationId: participation.id,
    progress: {
      metric: rules.goal.metric,
      value: measurement.value,
      target: rules.goal.target,
      fraction: progressFraction(rules.goal, measurement),
      shots: stats.shots,
      sessions: stats.sessions,
      evaluatedAt: now.toISOString(),
    },
    result: met ? { placement: 'completed', xp: participation.rewardXp, badge: rules.rewardBadge ?? null } : null,
    score: measurement.value,
  };
}

/**
 * Re-measures a batch of participations from the shot data in one transaction: one query reads
 * the active ones, one measures them all, one guarded UPDATE stores every progress and score and
 * moves those whose goal is met to `completed`, and only the transaction whose UPDATE did that
 * pays, in the same transaction: any number of concurrent evaluations of one participation pay
 * once. Answers each id's outcome.
 */
export async function evaluateParticipations(
  sql: Sql,
  participationIds: readonly string[],
  now: Date = new Date(),
): Promise<Map<string, EvaluationOutcome>> {
  const outcomes = new Map<string, EvaluationOutcome>(participationIds.map((id) => [id, 'inactive']));
  if (participationIds.length === 0) return outcomes;
  return sql.begin(async (tx) => {
    const participations = await findActiveParticipations(tx, participationIds);
    const stats = await measureShotsMany(
      tx,
      participations.map((participation) => scopeOf(participation, now)),
    );
    const stored = await storeProgresses(
      tx,
      participations.map((participation, index) => updateOf(participation, stats[index] ?? NO_SHOTS, now)),
      now,
    );
    const completed: ActiveParticipation[] = [];
    for (const participation of participations) {
      const status = stored.get(participation.id);
      if (status === 'completed') completed.push(participation);
      else if (status !== undefined) outcomes.set(participation.id, 'progressed');
    }
    // Paid in member order: a payout locks the member's rows (XP total, inbox count), so two
    // batches paying the same members take those locks in one order and cannot deadlock.
    completed.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.id < b.id ? -1 : 1));
    for (const participation of completed) {
      await payReward(tx, {
        userId: participation.userId,
        participationId: participation.id,
        challengeId: participation.challengeId,
        challengeTitle: bothLanguages(participation.titles, participation.title),
        xp: participation.rewardXp,
        badgeKey: participation.rules.rewardBadge ?? null,
        placement: 'completed',
      });
      outcomes.set(participation.id, 'completed');
    }
    return outcomes;
  });
}

/** Re-measures one participation (the batch of one): its outcome. */
export async function evaluateParticipation(sql: Sql, participationId: string, now: Date = new Date()): Promise<EvaluationOutcome> {
  return (await evaluateParticipations(sql, [participationId], now)).get(participationId) ?? 'inactive';
}

/** The largest batch one transaction evaluates (the sweep's page, a drain's participations). */
export const EVALUATION_BATCH = 500;

/** Evaluates the ids a batch at a time; answers how many there were and how many completed. */
export async function evaluateMany(sql: Sql, ids: readonly string[], now: Date): Promise<{ evaluated: number; completed: number }> {
  let completed = 0;
  for (let start = 0; start < ids.length; start += EVALUATION_BATCH) {
    const outcomes = await evaluateParticipations(sql, ids.slice(start, start + EVALUATION_BATCH), now);
    for (const outcome of outcomes.values()) if (outcome === 'completed') completed += 1;
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
    const ids = await activeParticipationIdsAfter(sql, after, EVALUATION_BATCH);
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
