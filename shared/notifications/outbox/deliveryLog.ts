import * as v from 'valibot';
import type { Queryable } from '../../db/client';
import { NotFoundError } from '../../errors/domainErrors';

export const DeliveryLogEntrySchema = v.object({
  channel: v.picklist(['email', 'push']),
  attempt: v.number(),
  outcome: v.picklist(['sent', 'retrying', 'failed', 'skipped']),
  reason: v.nullable(v.string()),
  at: v.string(),
});
export const DeliveryLogSchema = v.object({ items: v.array(DeliveryLogEntrySchema), pending: v.number() });
export type DeliveryLog = v.InferOutput<typeof DeliveryLogSchema>;

/** The attempts logged for one inbox entry, oldest first, are bounded by MAX_ATTEMPTS per channel. */
const MAX_LOG_LINES = 100;

/**
 * What became of the email (and later push) of one of the caller's inbox entries: every attempt
 * with its outcome and the reason it was not delivered, and how many deliveries are still
 * queued. An entry that is not the caller's answers 404, like one that does not exist.
 */
export async function deliveriesOf(sql: Queryable, userId: string, notificationId: string): Promise<DeliveryLog> {
  const [entry]: [{ pending: number }?] = await sql`
    select (select count(*)::int from notification_outbox o where o.notification_id = n.id and o.status = 'pending') as pending
    from notification n where n.id = ${notificationId} and n.user_id = ${userId}`;
  if (!entry) throw new NotFoundError('You have no notification with this id.', { code: 'notification_not_found' });
  const rows: {
    channel: 'email' | 'push';
    attempt: number;
    outcome: 'sent' | 'retrying' | 'failed' | 'skipped';
    reason: string | null;
    at: Date;
  }[] = await sql`
      select channel, attempt, outcome, reason, at from notification_delivery_log
      where notification_id = ${notificationId} and user_id = ${userId}
      order by at, id limit ${MAX_LOG_LINES}`;
  return { items: rows.map((row) => ({ ...row, at: row.at.toISOString() })), pending: entry.pending };
}

export interface ChannelQueue {
  /** The outbox channel: `email`, or `push` (one row per member; apps and browsers are told apart when it is sent). */
  channel: string;
  /** Pending rows of the channel, due or held (summaries, quiet hours, retries). */
  pending: number;
  /** Pending rows due now. */
  due: number;
  oldestDueAt: string | null;
}

export interface DeliveryQueueSummary {
  /** Pending rows due now, every channel. */
  due: number;
  /** Every pending row, due or held (summaries, quiet hours, retries). */
  pending: number;
  oldestDueAt: string | null;
  /** The same per channel the outbox has rows pending in, by channel name. */
  byChannel: ChannelQueue[];
  /** Failed deliveries of the last 24 hours by reason, most frequent first. */
  failuresByReason: { reason: string; count: number }[];
  /** Every attempt of the last 24 hours by channel, outcome and reason (sent and retrying without a reason). */
  outcomes: DeliveryOutcomeCount[];
}

export interface DeliveryOutcomeCount {
  channel: string;
  outcome: 'sent' | 'retrying' | 'failed' | 'skipped';
  /** Why it was not delivered; null for sent (a retry keeps the provider's reason when it gave one). */
  reason: string | null;
  count: number;
}

/** At most this many channel, outcome and reason groups: reasons are a short fixed list, this bounds a surprise. */
const MAX_OUTCOME_GROUPS = 60;

/** For the diagnostics page: how full the outbox is, per channel, and why deliveries failed lately. */
export async function deliveryQueueSummary(sql: Queryable, now: Date): Promise<DeliveryQueueSummary> {
  // Grouped by whatever channels the outbox holds, so a channel added later is counted without a change here.
  const channels: { channel: string; pending: number; due: number; oldestDueAt: Date | null }[] = await sql`
    select channel, count(*)::int as pending, count(*) filter (where deliver_after <= ${now})::int as due,
           min(deliver_after) filter (where deliver_after <= ${now}) as "oldestDueAt"
    from notification_outbox where status = 'pending'
    group by channel order by channel`;
  const failures: { reason: string; count: number }[] = await sql`
    select coalesce(reason, 'unknown') as reason, count(*)::int as count from notification_delivery_log
    where outcome = 'failed' and at > ${new Date(now.getTime() - 24 * 3_600_000)}
    group by 1 order by 2 desc, 1 limit 20`;
  // Skipped deliveries count as much as failed ones for an operator: a member who gets nothing
  // for want of an address or a device is not served, although no provider said no.
  const outcomes: DeliveryOutcomeCount[] = await sql`
    select channel, outcome, reason, count(*)::int as count from notification_delivery_log
    where at > ${new Date(now.getTime() - 24 * 3_600_000)}
    group by channel, outcome, reason order by channel, outcome, count desc, reason nulls first limit ${MAX_OUTCOME_GROUPS}`;
  const oldest = channels.flatMap((row) => (row.oldestDueAt ? [row.oldestDueAt.getTime()] : []));
  return {
    due: channels.reduce((sum, row) => sum + row.due, 0),
    pending: channels.reduce((sum, row) => sum + row.pending, 0),
    oldestDueAt: oldest.length ? new Date(Math.min(...oldest)).toISOString() : null,
    byChannel: channels.map((row) => ({ ...row, oldestDueAt: row.oldestDueAt?.toISOString() ?? null })),
    failuresByReason: failures,
    outcomes,
  };
}
