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

export interface DeliveryQueueSummary {
  /** Email rows pending and due now. */
  dueEmails: number;
  /** Every pending row, due or held (summaries, quiet hours, retries). */
  pending: number;
  oldestDueAt: string | null;
  /** Failed deliveries of the last 24 hours by reason, most frequent first. */
  failuresByReason: { reason: string; count: number }[];
}

/** For the diagnostics page: how full the outbox is and why deliveries failed lately. */
export async function deliveryQueueSummary(sql: Queryable, now: Date): Promise<DeliveryQueueSummary> {
  const [queue]: [{ dueEmails: number; pending: number; oldestDueAt: Date | null }] = await sql`
    select
      count(*) filter (where channel = 'email' and deliver_after <= ${now})::int as "dueEmails",
      count(*)::int as pending,
      min(deliver_after) filter (where deliver_after <= ${now}) as "oldestDueAt"
    from notification_outbox where status = 'pending'`;
  const failures: { reason: string; count: number }[] = await sql`
    select coalesce(reason, 'unknown') as reason, count(*)::int as count from notification_delivery_log
    where outcome = 'failed' and at > ${new Date(now.getTime() - 24 * 3_600_000)}
    group by 1 order by 2 desc, 1 limit 20`;
  return {
    dueEmails: queue.dueEmails,
    pending: queue.pending,
    oldestDueAt: queue.oldestDueAt?.toISOString() ?? null,
    failuresByReason: failures,
  };
}
