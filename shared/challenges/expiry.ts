import type { Sql } from '../db/client';
import { bothLanguages } from '../i18n/localizedText';
import {
  dueParticipationIds,
  expiredParticipationIds,
  finishContender,
  knockoutChallengesDue,
  lockContenders,
} from './evaluationRepository';
import { knockoutOutcome } from './knockout';
import { payReward, notifyFailed } from './payout';
import { evaluateParticipation, failParticipation } from './progress';

/**
 * The expiry timer's work. A participation whose deadline passed is measured once more (shots
 * taken before the deadline but ingested late still count) and then ends as failed if the goal
 * is still open. Knockout challenges are settled per club board once their end has passed.
 */
export async function expireParticipations(
  sql: Sql,
  now: Date = new Date(),
): Promise<{ failed: number; completed: number; knockoutsSettled: number }> {
  const knockouts = await knockoutChallengesDue(sql, now);
  let completed = 0;
  let failed = 0;
  for (const id of knockouts) {
    const outcome = await settleKnockout(sql, id, now);
    completed += outcome.completed;
    failed += outcome.failed;
  }
  for (const id of await expiredParticipationIds(sql, now)) {
    if ((await evaluateParticipation(sql, id, now)) === 'completed') completed += 1;
    else if (await failParticipation(sql, id, now)) failed += 1;
  }
  return { failed, completed, knockoutsSettled: knockouts.length };
}

/**
 * Places every active participant of a knockout challenge on their club's board (score, then who
 * reached it first) and pays the winner and the finalists. Participants without a single
 * counted shot place nowhere. The rows are locked and re-checked as active, so a second
 * settlement running at the same time finds nothing left to pay.
 */
export async function settleKnockout(sql: Sql, challengeId: string, now: Date): Promise<{ completed: number; failed: number }> {
  for (const id of await dueParticipationIds(sql, challengeId, now)) await evaluateParticipation(sql, id, now);
  return sql.begin(async (tx) => {
    const contenders = await lockContenders(tx, challengeId, now);
    const places = new Map<string, number>();
    let completed = 0;
    let failed = 0;
    for (const contender of contenders) {
      const board = contender.clubId ?? '';
      const knockout = contender.rules.knockout ?? { finalists: 0, finalistXp: 1 };
      let place: number | null = null;
      if (Number(contender.score) > 0) {
        place = (places.get(board) ?? 0) + 1;
        places.set(board, place);
      }
      const outcome = place === null ? ({ placement: 'out' } as const) : knockoutOutcome(place, contender.rewardXp, knockout);
      if (outcome.placement === 'out') {
        await finishContender(tx, contender.id, 'failed', { placement: 'out', place }, now);
        await notifyFailed(tx, contender.userId, bothLanguages(contender.titles, contender.title));
        failed += 1;
        continue;
      }
      const badgeKey = outcome.badge ? (contender.rules.rewardBadge ?? null) : null;
      await finishContender(tx, contender.id, 'completed', { placement: outcome.placement, place, xp: outcome.xp, badge: badgeKey }, now);
      await payReward(tx, {
        userId: contender.userId,
        participationId: contender.id,
        challengeId,
        challengeTitle: bothLanguages(contender.titles, contender.title),
        xp: outcome.xp,
        badgeKey,
        placement: outcome.placement,
      });
      completed += 1;
    }
    return { completed, failed };
  });
}
