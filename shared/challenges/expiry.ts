import type { Sql } from '../db/client';
import { knockoutOutcome } from './knockout';
import { payReward, notifyFailed } from './payout';
import { evaluateParticipation, failParticipation } from './progress';
import type { Rules } from './rules';

/**
 * The expiry timer's work. A participation whose deadline passed is measured once more (shots
 * taken before the deadline but ingested late still count) and then ends as failed if the goal
 * is still open. Knockout challenges are settled per club board once their end has passed.
 */
export async function expireParticipations(
  sql: Sql,
  now: Date = new Date(),
): Promise<{ failed: number; completed: number; knockoutsSettled: number }> {
  const knockouts = await sql<{ id: string }[]>`
    select distinct p.challenge_id as id from challenge_participation p
    where p.status = 'active' and p.deadline_at <= ${now} and p.rules ? 'knockout'
    order by 1`;
  let completed = 0;
  let failed = 0;
  for (const { id } of knockouts) {
    const outcome = await settleKnockout(sql, id, now);
    completed += outcome.completed;
    failed += outcome.failed;
  }
  const expired = await sql<{ id: string }[]>`
    select id from challenge_participation
    where status = 'active' and deadline_at <= ${now} and not (rules ? 'knockout')
    order by deadline_at, id`;
  for (const { id } of expired) {
    if ((await evaluateParticipation(sql, id, now)) === 'completed') completed += 1;
    else if (await failParticipation(sql, id, now)) failed += 1;
  }
  return { failed, completed, knockoutsSettled: knockouts.length };
}

interface Contender {
  id: string;
  userId: string;
  clubId: string | null;
  score: string;
  rules: Rules;
  rewardXp: number;
  title: string;
}

/**
 * Places every active participant of a knockout challenge on their club's board (score, then who
 * reached it first) and pays the winner and the finalists. Participants without a single
 * counted shot place nowhere. The rows are locked and re-checked as active, so a second
 * settlement running at the same time finds nothing left to pay.
 */
export async function settleKnockout(sql: Sql, challengeId: string, now: Date): Promise<{ completed: number; failed: number }> {
  const ids = await sql<{ id: string }[]>`
    select id from challenge_participation where challenge_id = ${challengeId} and status = 'active' and deadline_at <= ${now}`;
  for (const { id } of ids) await evaluateParticipation(sql, id, now);
  return sql.begin(async (tx) => {
    const contenders = await tx<Contender[]>`
      select p.id, p.user_id as "userId", p.club_id as "clubId", p.score::text as score, p.rules, p.reward_xp as "rewardXp", c.title
      from challenge_participation p join challenge c on c.id = p.challenge_id
      where p.challenge_id = ${challengeId} and p.status = 'active' and p.deadline_at <= ${now}
      order by p.club_id nulls last, p.score desc, p.score_reached_at, p.id
      for update of p`;
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
        await tx`
          update challenge_participation set status = 'failed', finished_at = ${now},
            result = ${tx.json({ placement: 'out', place })}
          where id = ${contender.id}`;
        await notifyFailed(tx, contender.userId, contender.title);
        failed += 1;
        continue;
      }
      const badgeKey = outcome.badge ? (contender.rules.rewardBadge ?? null) : null;
      await tx`
        update challenge_participation set status = 'completed', finished_at = ${now},
          result = ${tx.json({ placement: outcome.placement, place, xp: outcome.xp, badge: badgeKey })}
        where id = ${contender.id}`;
      await payReward(tx, {
        userId: contender.userId,
        participationId: contender.id,
        challengeId,
        challengeTitle: contender.title,
        xp: outcome.xp,
        badgeKey,
        placement: outcome.placement,
      });
      completed += 1;
    }
    return { completed, failed };
  });
}
