import type { TransactionSql } from '../db/client';
import type { BilingualText } from '../i18n/localizedText';
import { notify } from '../notifications/notify';
import { awardBadge } from './badgeRepository';
import { appendXp } from './xpLedgerRepository';

export interface Reward {
  userId: string;
  participationId: string;
  challengeId: string;
  challengeTitle: BilingualText;
  xp: number;
  badgeKey: string | null;
  placement: 'completed' | 'winner' | 'finalist';
}

/**
 * Pays a finished participation: the XP row, the badge and the notification, inside the
 * transaction that moved the participation out of `active`. The unique ledger key and the
 * badge's primary key make a second payout impossible even if two transactions got this far;
 * the notification is only written when the XP row was new, so it comes exactly once too.
 * The notification is the message `challenges.result` (texts.ts), read in the reader's language.
 */
export async function payReward(tx: TransactionSql, reward: Reward): Promise<{ paid: boolean }> {
  const paid = await appendXp(tx, { userId: reward.userId, amount: reward.xp, sourceKind: 'challenge', sourceId: reward.participationId });
  const badge = reward.badgeKey
    ? await awardBadge(tx, {
        userId: reward.userId,
        badgeKey: reward.badgeKey,
        challengeId: reward.challengeId,
        participationId: reward.participationId,
      })
    : undefined;
  if (!paid && !badge) return { paid: false };
  await notify(tx, {
    userId: reward.userId,
    message: {
      key: 'challenges.result',
      params: { placement: reward.placement, challenge: reward.challengeTitle, xp: reward.xp, ...(badge ? { badge } : {}) },
    },
    tone: 'success',
    kind: 'challenge',
    category: 'training',
    source: 'challenges',
  });
  return { paid: true };
}

/** Tells the member their attempt ended without the goal: inbox only, no email or push. */
export async function notifyFailed(tx: TransactionSql, userId: string, challengeTitle: BilingualText): Promise<void> {
  await notify(tx, {
    userId,
    message: { key: 'challenges.failed', params: { challenge: challengeTitle } },
    tone: 'info',
    kind: 'challenge',
    category: 'training',
    source: 'challenges',
    channels: [],
  });
}
