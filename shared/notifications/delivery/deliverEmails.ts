import { createHash } from 'node:crypto';
import type { Sql } from '../../db/client';
import type { Logger } from '../../log/logger';
import { loadSettingsOf, type StoredSettings } from '../preferencesRepository';
import { loadContacts, type Contact } from './contactRepository';
import { recordOutcomes, type Outcome } from './deliveryOutcomes';
import type { EmailSender } from './emailSender';
import { renderEmail } from './emailTemplates';
import { claimDueEmails, summaryKey, type ClaimedRow } from './outboxClaims';
import { afterFailure, boundedReason, CLAIM_LEASE_MS, DeliveryFailure } from './retryPolicy';
import { inParallel } from './inParallel';
import { unsubscribeUrl } from './unsubscribe';

export interface DeliveryOptions {
  sender: EmailSender;
  /** The service's public URL, for the unsubscribe links. */
  publicBaseUrl: string;
  /** The name the emails are signed with. */
  senderName: string;
  now?: () => Date;
  /** Rows claimed per round. */
  batch?: number;
  /** Emails in flight at once. */
  concurrency?: number;
  /** Rounds per run, so one invocation ends even while producers keep the outbox full. */
  maxRounds?: number;
  log?: Logger;
}

export type DeliveryRun = {
  emails: number;
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
};

/**
 * Sends the due email rows of the outbox: claims a batch, sends each message (a summary's rows as
 * one email, up to `concurrency` in flight), records every outcome of the batch in one statement,
 * and repeats until nothing is due or maxRounds is reached. Several instances may run at once: a
 * row is claimed by one of them only. A failing message (a provider refusal, a row that cannot be
 * rendered) is recorded for its own rows and never holds back the others. A crash after sending
 * and before the batch is recorded leaves the batch's rows claimed until the lease ends; they are
 * then sent again under the same Operation-Ids, which the provider answers without a second email.
 */
export async function deliverDueEmails(sql: Sql, options: DeliveryOptions): Promise<DeliveryRun> {
  const now = options.now ?? (() => new Date());
  const run: DeliveryRun = { emails: 0, sent: 0, retrying: 0, failed: 0, skipped: 0 };
  for (let round = 0; round < (options.maxRounds ?? 20); round++) {
    const rows = await claimDueEmails(sql, now(), options.batch ?? 200, CLAIM_LEASE_MS);
    if (rows.length === 0) break;
    const userIds = unique(rows.map((row) => row.userId));
    // The global email switch is read at send time, once per batch: one-click unsubscribe and a
    // member who turned email off stop what is still queued, summaries included.
    const [contacts, settings] = await Promise.all([loadContacts(sql, userIds), loadSettingsOf(sql, userIds)]);
    const messages = [...groupMessages(rows).values()];
    const outcomes = await inParallel(messages, options.concurrency ?? 8, (message) =>
      deliverOne(message, contacts, settings, options, now),
    );
    const recorded = await recordOutcomes(
      sql,
      messages.map((message, index) => ({ rows: message, outcome: outcomes[index] as Outcome })),
    );
    for (const [index, outcome] of outcomes.entries()) {
      run.emails++;
      run[outcome.kind] += recorded[index] ?? 0;
      if (outcome.kind !== 'sent')
        options.log?.warn('notification_email_not_sent', { outcome: outcome.kind, reason: outcome.reason, rows: messages[index]?.length });
    }
  }
  return run;
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
    if (!settings.get(first.userId)?.preferences.email.enabled) return { kind: 'skipped', reason: 'email_disabled' };
    if (!contact?.email) return { kind: 'skipped', reason: 'no_email_address' };
    const unsubscribeCategory = first.digest ? null : first.category;
    const link = unsubscribeUrl(options.publicBaseUrl, { userId: first.userId, category: unsubscribeCategory });
    const rendered = renderEmail({
      language: contact.language,
      senderName: options.senderName,
      items: message.map((row) => ({ title: row.title, body: row.body })),
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
    const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure('transient', `internal_error: ${errorName(error)}`);
    const reason = boundedReason(failure.reason);
    const next = afterFailure(failure.kind, attempts, now(), failure.retryAfterMs);
    return next.outcome === 'retrying' ? { kind: 'retrying', reason, retryAt: next.retryAt } : { kind: 'failed', reason };
  }
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
