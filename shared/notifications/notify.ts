import type { TransactionSql } from '../db/client';
import { decideDeliveries, type Delivery, type DeliverySubject } from './deliveryDecision';
import { insertInboxEntry, pruneToNewest } from './inboxRepository';
import { enqueueDeliveries } from './outbox/outboxRepository';
import { loadSettings } from './preferencesRepository';
import type { Tone } from './record';
import { loadContact } from './contactRepository';
import type { Message } from '../i18n/message';
import { isKnownMessage, renderMessage } from '../i18n/messages';

/**
 * The newest entries a user keeps; notify deletes older ones in the same transaction, so a
 * noisy producer cannot grow an inbox without bound.
 */
export const INBOX_CAP = 1000;

// Two-key advisory locks live in their own key space; this first key names "one user's inbox".
export const INBOX_LOCK_NAMESPACE = 4_110_001;

export interface NotifyInput extends DeliverySubject {
  userId: string;
  /**
   * What the entry says: a catalogue message (rendered in the reader's language wherever it is
   * read, and in the recipient's stored language for email and push), or else a fixed `title` and
   * `body` the producer wrote in one language.
   */
  message?: Message;
  title?: string;
  body?: string;
  tone: Tone;
  /** The producing area, for diagnostics: 'billing', 'scheduler', 'duels', ... */
  source: string;
  /** Groups the queued deliveries so cancelPendingDeliveries can withdraw them later. */
  cancelKey?: string;
}

export interface NotifyResult {
  id: string;
  deliveries: Delivery[];
  /** Old entries removed to keep the inbox within INBOX_CAP. */
  pruned: number;
}

/**
 * The one way to notify a user. Within the caller's transaction: trims the inbox so the new
 * entry fits within INBOX_CAP, writes the inbox entry (always), and queues the email/push
 * deliveries the user's preferences allow in notification_outbox for the delivery worker, each
 * with its own copy of title, body and tone. Producers never write these tables themselves.
 *
 * The caller owns the transaction (a caller in none opens one with `sql.begin`), so the entry
 * commits or rolls back with whatever the caller writes beside it, e.g. a challenge payout.
 */
export async function notify(tx: TransactionSql, input: NotifyInput, now: Date = new Date()): Promise<NotifyResult> {
  // Serialises notify calls for one user until the caller's transaction ends, so concurrent
  // producers cannot overshoot the cap.
  await tx`select pg_advisory_xact_lock(${INBOX_LOCK_NAMESPACE}, hashtext(${input.userId}))`;
  // The entry's created_at is taken after this lock (insertInboxEntry), so for one user the
  // entry that commits later always carries the later time and lands above the ones before.
  // Trimming before the insert makes room for the new entry, and takes row locks before the
  // unread counter's lock, in the same order as every other inbox statement.
  const pruned = await pruneToNewest(tx, input.userId, INBOX_CAP - 1);
  const text = await storedText(tx, input);
  const entry = await insertInboxEntry(tx, {
    userId: input.userId,
    ...text,
    tone: input.tone,
    kind: input.kind,
    category: input.category,
    source: input.source,
  });
  const { preferences, timeZone } = await loadSettings(tx, input.userId);
  const deliveries = decideDeliveries(preferences, input, now, timeZone);
  await enqueueDeliveries(
    tx,
    {
      notificationId: entry.id,
      userId: input.userId,
      title: text.title,
      body: text.body ?? null,
      message: text.message,
      tone: input.tone,
      category: input.category ?? null,
    },
    deliveries,
    input.cancelKey ?? null,
  );
  return { id: entry.id, deliveries, pruned };
}

/**
 * The text stored with the entry: a message's rendering in the recipient's stored language (what
 * is shown should the message's key ever be removed), or the producer's own title and body.
 */
async function storedText(tx: TransactionSql, input: NotifyInput): Promise<{ title: string; body?: string; message: Message | null }> {
  if (!input.message) {
    if (input.title === undefined) throw new Error('notify needs a message or a title');
    return { title: input.title, body: input.body, message: null };
  }
  if (!isKnownMessage(input.message.key)) throw new Error(`unknown notification message ${input.message.key}`);
  const rendered = renderMessage(input.message, (await loadContact(tx, input.userId)).language);
  if (!rendered) throw new Error(`notification message ${input.message.key} cannot render its parameters`);
  return { title: rendered.title, body: rendered.body, message: input.message };
}
