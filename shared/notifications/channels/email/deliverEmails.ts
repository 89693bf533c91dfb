import { createHash } from 'node:crypto';
import type { Sql } from '../../../db/client';
import { loadSettingsOf, type StoredSettings } from '../../preferencesRepository';
import { loadContacts, type Contact } from '../../contactRepository';
import type { Outcome } from '../../outbox/deliveryOutcomes';
import { drainOutbox, type DrainOptions } from '../../outbox/drainOutbox';
import type { EmailSender } from './emailSender';
import { renderEmail } from './emailTemplates';
import { entryText } from '../../../i18n/messages';
import type { OutboxChannel } from '../../outbox/outboxChannel';
import { summaryKey, type ClaimedRow } from '../../outbox/outboxClaims';
import { afterFailure, boundedReason, DeliveryFailure } from '../../outbox/retryPolicy';
import { inParallel } from '../../outbox/inParallel';
import { unsubscribeUrl } from './unsubscribe';
import { loadConfirmations, type Confirmation } from '../../contactConfirmationRepository';
import { confirmationUrl } from '../../contactConfirmationToken';
import { renderConfirmationEmail } from './confirmationEmail';

export interface DeliveryOptions extends DrainOptions {
  sender: EmailSender;
  /** The service's public URL, for the unsubscribe links. */
  publicBaseUrl: string;
  /** The name the emails are signed with. */
  senderName: string;
  /** Emails in flight at once. */
  concurrency?: number;
}

export type DeliveryRun = {
  emails: number;
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
};

/**
 * Sends the due email rows of the outbox (drainOutbox.ts): a summary's rows as one email, up to
 * `concurrency` in flight. A failing message (a provider refusal, a row that cannot be rendered)
 * is recorded for its own rows and never holds back the others. A crash after sending and before
 * the batch is recorded leaves the batch's rows claimed until the lease ends; they are then sent
 * again under the same Operation-Ids, which the provider answers without a second email.
 */
export async function deliverDueEmails(sql: Sql, options: DeliveryOptions): Promise<DeliveryRun> {
  const { messages, ...outcomes } = await drainOutbox(sql, emailChannel(options), options);
  return { emails: messages, ...outcomes };
}

/** Email as an outbox channel. */
export function emailChannel(options: DeliveryOptions): OutboxChannel {
  return {
    name: 'email',
    async deliver(sql, rows, now) {
      const userIds = unique(rows.map((row) => row.userId));
      // The global email switch is read at send time, once per batch: one-click unsubscribe and a
      // member who turned email off stop what is still queued, summaries included.
      const confirmationIds = rows.flatMap((row) => (row.contactConfirmationId ? [row.contactConfirmationId] : []));
      const [contacts, settings, confirmations] = await Promise.all([
        loadContacts(sql, userIds),
        loadSettingsOf(sql, userIds),
        loadConfirmations(sql, confirmationIds),
      ]);
      const messages = [...groupMessages(rows).values()];
      const outcomes = await inParallel(messages, options.concurrency ?? 8, (message) =>
        message[0].contactConfirmationId
          ? deliverConfirmation(message, confirmations.get(message[0].contactConfirmationId), contacts, options, now)
          : deliverOne(message, contacts, settings, options, now),
      );
      return messages.map((message, index) => ({ rows: message, outcome: outcomes[index] as Outcome }));
    },
  };
}

async function deliverOne(
  message: [ClaimedRow, ...ClaimedRow[]],
  contacts: Map<string, Contact>,
  settings: Map<string, StoredSettings>,
  options: DeliveryOptions,
  now: () => Date,
): Promise<Outcome> {
  const [first] = message;
  const contact = contacts.get(first.userId);
  const attempts = Math.max(...message.map((row) => row.attempts));
  try {
    // An address is used only once its owner confirmed it (docs/notifications.md, Contact details).
    if (!contact?.email && contact?.pendingEmail) return { kind: 'skipped', reason: 'email_unconfirmed' };
    if (!settings.get(first.userId)?.preferences.email.enabled) return { kind: 'skipped', reason: 'email_disabled' };
    if (!contact?.email) return { kind: 'skipped', reason: 'no_email_address' };
    const unsubscribeCategory = first.digest ? null : first.category;
    const link = unsubscribeUrl(options.publicBaseUrl, { userId: first.userId, category: unsubscribeCategory });
    const rendered = renderEmail({
      language: contact.language,
      senderName: options.senderName,
      items: message.map((row) => entryText(row, contact.language)),
      digest: first.digest,
      unsubscribeCategory,
      unsubscribeUrl: link,
    });
    const { providerId } = await options.sender.send({
      operationId: operationIdOf(message),
      to: contact.email,
      ...rendered,
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return { kind: 'sent', providerId };
  } catch (error) {
    return afterError(error, attempts, now);
  }
}

/**
 * The confirmation link, to the address being confirmed, whatever the member's email switches say:
 * they asked for it a moment ago. No unsubscribe link: this address has agreed to nothing yet. A
 * link that was used, replaced or ran out meanwhile is not sent.
 */
async function deliverConfirmation(
  message: [ClaimedRow, ...ClaimedRow[]],
  confirmation: Confirmation | undefined,
  contacts: Map<string, Contact>,
  options: DeliveryOptions,
  now: () => Date,
): Promise<Outcome> {
  const [first] = message;
  if (!confirmation?.email || confirmation.usedAt || confirmation.supersededAt || confirmation.expiresAt.getTime() <= now().getTime()) {
    return { kind: 'skipped', reason: 'confirmation_outdated' };
  }
  try {
    const rendered = renderConfirmationEmail({
      language: contacts.get(first.userId)?.language ?? 'de',
      senderName: options.senderName,
      url: confirmationUrl(options.publicBaseUrl, confirmation.id),
    });
    const { providerId } = await options.sender.send({
      operationId: operationIdOf(message),
      to: confirmation.email,
      ...rendered,
      headers: {},
    });
    return { kind: 'sent', providerId };
  } catch (error) {
    return afterError(error, first.attempts, now);
  }
}

/** A failed send: retried later or failed for good (outbox/retryPolicy.ts). */
function afterError(error: unknown, attempts: number, now: () => Date): Outcome {
  const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure('transient', `internal_error: ${errorName(error)}`);
  const reason = boundedReason(failure.reason);
  const next = afterFailure(failure.kind, attempts, now(), failure.retryAfterMs);
  return next.outcome === 'retrying' ? { kind: 'retrying', reason, retryAt: next.retryAt } : { kind: 'failed', reason };
}

/** One email per single row, one per summary (its rows oldest first). */
export function groupMessages(rows: readonly ClaimedRow[]): Map<string, [ClaimedRow, ...ClaimedRow[]]> {
  const messages = new Map<string, [ClaimedRow, ...ClaimedRow[]]>();
  for (const row of [...rows].sort((a, b) => Number(a.id) - Number(b.id))) {
    const key = row.digest ? summaryKey(row) : `row\n${row.id}`;
    const message = messages.get(key);
    if (message) message.push(row);
    else messages.set(key, [row]);
  }
  return messages;
}

/** A UUID fixed by the rows of the message, the same on every attempt. */
export function operationIdOf(rows: readonly Pick<ClaimedRow, 'id'>[]): string {
  const ids = rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));
  const hex = createHash('sha256')
    .update(`notification-outbox:${ids.join(',')}`)
    .digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function errorName(error: unknown): string {
  // The name only: a message may quote the data being sent.
  return error instanceof Error ? error.name : typeof error;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
