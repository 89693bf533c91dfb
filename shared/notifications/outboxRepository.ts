import type { Queryable } from '../db/client';
import type { Delivery } from './deliveryDecision';

/** Queues the deliveries of one inbox entry for the delivery worker. */
export async function enqueueDeliveries(
  sql: Queryable,
  notificationId: string,
  userId: string,
  deliveries: readonly Delivery[],
  cancelKey: string | null,
): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((delivery) => ({
    notification_id: notificationId,
    user_id: userId,
    channel: delivery.channel,
    deliver_after: delivery.deliverAfter,
    digest: delivery.digest,
    cancel_key: cancelKey,
  }));
  await sql`insert into notification_outbox ${sql(rows, 'notification_id', 'user_id', 'channel', 'deliver_after', 'digest', 'cancel_key')}`;
}

/**
 * Withdraws the still-pending deliveries queued under `cancelKey` (a reminder whose event was
 * moved or cancelled); answers how many were withdrawn.
 */
export async function cancelPendingDeliveries(sql: Queryable, cancelKey: string): Promise<number> {
  const result = await sql`
    update notification_outbox set status = 'cancelled', updated_at = now()
    where cancel_key = ${cancelKey} and status = 'pending'`;
  return result.count;
}
