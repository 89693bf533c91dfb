import type { TransactionSql } from '../db/client';
import { notify } from '../notifications/notify';
import { awardBadge } from './badgeRepository';
import { appendXp } from './xpLedgerRepository';

export interface Reward {
  userId: string;
  participationId: string;
  challengeId: string;
  challengeTitle: string;
  xp: number;
  badgeKey: string | null;
  placement: 'completed' | 'winner' | 'finalist';
}

/**
 * Pays a finished participation: the XP row, the badge and the notification, inside the
 * transaction that moved the participation out of `active`. The unique ledger key and the
 * badge's primary key make a second payout impossible even if two transactions got this far;
 * the notification is only written when the XP row was new, so it comes exactly once too.
 */
export async function payReward(tx: TransactionSql, reward: Reward): Promise<{ paid: boolean }> {
  const paid = await appendXp(tx, { userId: reward.userId, amount: reward.xp, sourceKind: 'challenge', sourceId: reward.participationId });
  const badgeName = reward.badgeKey
    ? ((await awardBadge(tx, {
        userId: reward.userId,
        badgeKey: reward.badgeKey,
        challengeId: reward.challengeId,
        participationId: reward.participationId,
      })) ?? null)
    : null;
  if (!paid && !badgeName) return { paid: false };
  const title =
    reward.placement === 'finalist'
      ? `Finalist: ${reward.challengeTitle}`
      : reward.placement === 'winner'
        ? `Winner: ${reward.challengeTitle}`
        : `Challenge completed: ${reward.challengeTitle}`;
  const parts = [`+${reward.xp} XP`];
  if (badgeName) parts.push(`badge "${badgeName}"`);
  await notify(tx, {
    userId: reward.userId,
    title,
    body: `You earned ${parts.join(' and ')}.`,
    tone: 'success',
    kind: 'challenge',
    category: 'training',
    source: 'challenges',
  });
  return { paid: true };
}

/** Tells the member their attempt ended without the goal: inbox only, no email or push. */
export async function notifyFailed(tx: TransactionSql, userId: string, challengeTitle: string): Promise<void> {
  await notify(tx, {
    userId,
    title: `Challenge ended: ${challengeTitle}`,
    body: 'The time ran out before the goal was reached. Join another challenge to keep going.',
    tone: 'info',
    kind: 'challenge',
    category: 'training',
    source: 'challenges',
    channels: [],
  });
}
