import type { Queryable } from '../db/client';
import type { LocalizedText } from '../i18n/localizedText';
import type { StoredResult } from './evaluationRepository';
import type { Rules } from './rules';

/**
 * The reads and the write of progress evaluation, set-based: the active participations of a batch
 * with their challenge, and one guarded UPDATE storing every measured one (completing those whose
 * goal is met).
 */

export interface ActiveParticipation {
  id: string;
  userId: string;
  challengeId: string;
  title: string;
  titles: LocalizedText;
  scope: 'global' | 'club' | 'personal';
  challengeClubId: string | null;
  rules: Rules;
  rewardXp: number;
  joinedAt: Date;
  deadlineAt: Date;
}

/** Those of these participations that are active, with their challenge, in id order. */
export async function findActiveParticipations(sql: Queryable, participationIds: readonly string[]): Promise<ActiveParticipation[]> {
  if (participationIds.length === 0) return [];
  return sql<ActiveParticipation[]>`
    select p.id, p.user_id as "userId", p.challenge_id as "challengeId", c.title, c.titles, c.scope,
           c.club_id as "challengeClubId", p.rules, p.reward_xp as "rewardXp",
           p.joined_at as "joinedAt", p.deadline_at as "deadlineAt"
    from challenge_participation p join challenge c on c.id = p.challenge_id
    where p.id = any(${[...participationIds]}::text[]) and p.status = 'active'
    order by p.id`;
}

export type StoredProgress = {
  metric: string;
  value: number;
  target: number;
  fraction: number;
  shots: number;
  sessions: number;
  evaluatedAt: string;
};

export interface ProgressUpdate {
  participationId: string;
  progress: StoredProgress;
  /**
   * The result of a participation whose goal is met, which completes it; null while the goal is
   * not met, and the stored result stays as it was.
   */
  result: StoredResult | null;
  score: number;
}

/**
 * Stores progress and score of every still active participation of `updates` and completes those
 * whose goal is met, in one statement; answers the status afterwards by id (absent: no longer
 * active, so nothing was written). The rows are locked in id order first, so concurrent batches
 * that share participations wait for each other instead of deadlocking; the `status = 'active'`
 * guard, re-checked on the newest row, lets exactly one transaction complete a participation.
 * One statement also means the board counters' statement triggers run once for the whole batch.
 */
export async function storeProgresses(sql: Queryable, updates: readonly ProgressUpdate[], now: Date): Promise<Map<string, string>> {
  if (updates.length === 0) return new Map();
  const rows = await sql<{ id: string; status: string }[]>`
    with batch as (
      select u.*, u.result is not null as met
      from unnest(
        ${updates.map((update) => update.participationId)}::text[],
        ${updates.map((update) => JSON.stringify(update.progress))}::text[],
        ${updates.map((update) => (update.result ? JSON.stringify(update.result) : null))}::text[],
        ${updates.map((update) => update.score)}::numeric[]
      ) as u(id, progress, result, score)
    ), locked as materialized (
      select p.id from challenge_participation p
      where p.id in (select id from batch) and p.status = 'active'
      order by p.id
      for update of p
    )
    update challenge_participation p set
      progress = b.progress::jsonb,
      result = coalesce(b.result::jsonb, p.result),
      score_reached_at = case when p.score <> b.score then ${now}::timestamptz else p.score_reached_at end,
      score = b.score,
      evaluated_at = ${now}::timestamptz,
      status = case when b.met then 'completed' else p.status end,
      finished_at = case when b.met then ${now}::timestamptz else p.finished_at end
    from batch b, locked l
    where p.id = b.id and l.id = b.id and p.status = 'active'
    returning p.id, p.status`;
  return new Map(rows.map((row) => [row.id, row.status]));
}
