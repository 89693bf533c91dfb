import type { Queryable } from '../../db/client';
import type { Delivery } from '../deliveryDecision';
import type { Message } from '../../i18n/message';
import type { Category, Tone } from '../record';

/** What every delivery of one notification carries. */
export interface OutboxMessage {
  notificationId: string;
  userId: string;
  title: string;
  body: string | null;
  /** Rendered again at send time in the recipient's language; title and body when it cannot be. */
  message: Message | null;
  tone: Tone;
  /** Names the preference a one-click unsubscribe link of the email switches off. */
  category: Category | null;
}

/**
 * Queues the deliveries of one inbox entry for the delivery worker. Each row keeps its own copy
 * of title, body and tone: the inbox entry may be deleted (by the user, by clear, by the cap)
 * before the delivery is due, and the delivery must still go out, critical or digest alike.
 */
export async function enqueueDeliveries(
  sql: Queryable,
  message: OutboxMessage,
  deliveries: readonly Delivery[],
  cancelKey: string | null,
): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((delivery) => ({
    notification_id: message.notificationId,
    user_id: message.userId,
    title: message.title,
    body: message.body,
    tone: message.tone,
    channel: delivery.channel,
    deliver_after: delivery.deliverAfter,
    digest: delivery.digest,
    cancel_key: cancelKey,
    category: message.category,
    message_key: message.message?.key ?? null,
    message_params: message.message ? sql.json(message.message.params as never) : null,
  }));
  await sql`insert into notification_outbox ${sql(rows, 'notification_id', 'user_id', 'title', 'body', 'tone', 'channel', 'deliver_after', 'digest', 'cancel_key', 'category', 'message_key', 'message_params')}`;
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

/**
 * Queues the email with a contact confirmation link. It has no inbox entry and goes to the
 * address being confirmed, not to the member's address in use; the email channel writes its text
 * and link at send time from the confirmation row (channels/email/confirmationEmail.ts).
 */
export async function enqueueConfirmationEmail(
  sql: Queryable,
  confirmation: { userId: string; confirmationId: string; title: string; deliverAfter: Date },
): Promise<void> {
  await sql`
    insert into notification_outbox (user_id, title, tone, channel, deliver_after, contact_confirmation_id)
    values (${confirmation.userId}, ${confirmation.title}, 'info', 'email', ${confirmation.deliverAfter}, ${confirmation.confirmationId})`;
}
