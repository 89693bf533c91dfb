import { createHash } from 'node:crypto';
import type { Sql } from '../../db/client';
import { loadContacts } from '../contactRepository';
import type { Attempt, Outcome } from '../outbox/deliveryOutcomes';
import { drainOutbox, type DrainOptions } from '../outbox/drainOutbox';
import { inParallel } from '../outbox/inParallel';
import type { OutboxChannel } from '../outbox/outboxChannel';
import type { ClaimedRow } from '../outbox/outboxClaims';
import { afterFailure, boundedReason, DeliveryFailure } from '../outbox/retryPolicy';
import { loadSettingsOf } from '../preferencesRepository';
import type { PushChannels } from './pushChannels';
import type { PushChannel, PushMessage, PushTarget } from '../channels/pushChannel';
import { entryText } from '../../i18n/messages';
import { renderPushes } from './pushTexts';
import { markSent, removeStaleRegistration, targetsOf } from './registrationRepository';

export interface PushDeliveryOptions extends DrainOptions {
  channels: PushChannels;
  /** Members served at once. */
  concurrency?: number;
}

export interface PushRun {
  pushes: number;
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
  /** Registrations removed because their push service said they are gone. */
  removed: number;
}

/**
 * Sends the due push rows of the outbox (drainOutbox.ts) to every registration of their member:
 * Web Push for browsers, Notification Hubs for the apps. A push counts as sent when at least one
 * registration took it; registrations their push service reports gone are removed; when none took
 * it, the failures decide between a retry with backoff and `failed`.
 */
export async function deliverDuePushes(sql: Sql, options: PushDeliveryOptions): Promise<PushRun> {
  const removed = { count: 0 };
  const { messages, ...outcomes } = await drainOutbox(sql, pushOutboxChannel(options, removed), options);
  return { pushes: messages, ...outcomes, removed: removed.count };
}

/** Push as an outbox channel; `removed` counts the registrations found gone. */
function pushOutboxChannel(options: PushDeliveryOptions, removed: { count: number }): OutboxChannel {
  return {
    name: 'push',
    async deliver(sql, rows, now) {
      const userIds = [...new Set(rows.map((row) => row.userId))];
      // The push switch is read at send time, once per batch, like the contacts and registrations.
      const [contacts, targets, settings] = await Promise.all([
        loadContacts(sql, userIds),
        targetsOf(sql, userIds),
        loadSettingsOf(sql, userIds),
      ]);
      const byUser = new Map<string, ClaimedRow[]>();
      for (const row of rows) {
        const userRows = byUser.get(row.userId);
        if (userRows) userRows.push(row);
        else byUser.set(row.userId, [row]);
      }
      const accepted: string[] = [];
      const perUser = await inParallel([...byUser.entries()], options.concurrency ?? 8, async ([userId, userRows]): Promise<Attempt[]> => {
        const preferences = settings.get(userId)?.preferences;
        if (!preferences?.push.enabled) return [{ rows: userRows, outcome: { kind: 'skipped', reason: 'push_disabled' } }];
        const language = contacts.get(userId)?.language ?? 'de';
        const userTargets = targets.get(userId) ?? [];
        const attempts: Attempt[] = [];
        for (const push of renderPushes(
          language,
          userRows.map((row) => entryText(row, language)),
        )) {
          const pushRows = push.items.map((index) => userRows[index] as ClaimedRow);
          const message = messageOf({ ...push, rows: pushRows }, preferences.push.sound);
          // The batch's outcomes are written together: an unexpected error (a failed query removing a
          // stale registration) is this push's transient failure, never the lost outcomes of the others.
          const outcome = await sendToAll(sql, options, removed, userTargets, message, pushRows, now, accepted).catch((error: unknown) =>
            failureOutcome([new DeliveryFailure('transient', `internal_error: ${(error as Error).name}`)], pushRows, now),
          );
          attempts.push({ rows: pushRows, outcome });
        }
        return attempts;
      });
      await markSent(sql, accepted);
      return perUser.flat();
    },
  };
}

function messageOf(push: { title: string; body: string; rows: ClaimedRow[] }, sound: boolean): PushMessage {
  const ids = push.rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b));
  return {
    title: push.title,
    body: push.body,
    sound,
    notificationIds: push.rows.flatMap((row) => (row.notificationId ? [row.notificationId] : [])).reverse(),
    collapseKey: createHash('sha256')
      .update(`notification-outbox:${ids.join(',')}`)
      .digest('base64url')
      .slice(0, 22),
  };
}

async function sendToAll(
  sql: Sql,
  options: PushDeliveryOptions,
  removed: { count: number },
  targets: readonly PushTarget[],
  message: PushMessage,
  rows: readonly ClaimedRow[],
  now: () => Date,
  /** Collects the registrations that took the push, for one last_sent_at update per batch. */
  accepted: string[],
): Promise<Outcome> {
  if (targets.length === 0) return { kind: 'skipped', reason: 'no_push_registration' };
  let took = 0;
  const failures: DeliveryFailure[] = [];
  let gone = 0;
  for (const target of targets) {
    const channel: PushChannel | undefined = target.platform === 'webpush' ? options.channels.web?.channel : options.channels.mobile;
    if (!channel) {
      failures.push(new DeliveryFailure('transient', `${target.platform}_not_configured`));
      continue;
    }
    try {
      const result = await channel.send(target, message);
      if (result === 'accepted') {
        accepted.push(target.id);
        took++;
      } else if (await removeStaleRegistration(sql, target)) {
        gone++;
        removed.count++;
        // The hub keeps an expired installation until it ages out; it is of no use any more.
        if (target.platform !== 'webpush') await options.channels.mobile?.uninstall(target.id).catch(() => undefined);
        options.log?.info('push_registration_removed', { registrationId: target.id, platform: target.platform });
      }
    } catch (error) {
      failures.push(
        error instanceof DeliveryFailure ? error : new DeliveryFailure('transient', `internal_error: ${(error as Error).name}`),
      );
    }
  }
  // Sent once any device took it: retrying for the others would show it twice on the ones that did.
  if (took > 0) return { kind: 'sent', providerId: `push:${took}/${targets.length}` };
  if (failures.length === 0) return { kind: 'skipped', reason: gone ? 'push_registrations_gone' : 'no_push_registration' };
  return failureOutcome(failures, rows, now);
}

/** Retry while any failure may pass (with backoff or the provider's Retry-After, up to MAX_ATTEMPTS), else `failed` with the reason. */
function failureOutcome(failures: readonly DeliveryFailure[], rows: readonly ClaimedRow[], now: () => Date): Outcome {
  const transient = failures.find((failure) => failure.kind === 'transient');
  const reason = boundedReason((transient ?? failures[0] ?? new DeliveryFailure('transient', 'unknown')).reason);
  const attempts = Math.max(...rows.map((row) => row.attempts));
  // Several devices throttled: the row waits for the one that asked for the longest.
  const hints = failures.flatMap((failure) =>
    failure.kind === 'transient' && failure.retryAfterMs !== undefined ? [failure.retryAfterMs] : [],
  );
  const retryAfterMs = hints.length > 0 ? Math.max(...hints) : undefined;
  const next = afterFailure(transient ? 'transient' : 'permanent', attempts, now(), retryAfterMs);
  return next.outcome === 'retrying' ? { kind: 'retrying', reason, retryAt: next.retryAt } : { kind: 'failed', reason };
}
