import type { Sql } from '../../db/client';
import type { Settings } from '../../config/settings';
import type { Logger } from '../../log/logger';
import { emailSenderFromSettings } from './acsEmailSender';
import { deliverDueEmails, type DeliveryRun } from './deliverEmails';
import type { EmailSender } from './emailSender';

const senders = new WeakMap<Settings, EmailSender | undefined>();

/**
 * One run of the delivery timer. Without an email configuration (no sender address, neither a
 * connection string nor an endpoint) it sends nothing and says so: the rows stay queued until
 * email is configured, rather than failing.
 */
export async function runDeliveryTimer(sql: Sql, settings: Settings, log: Logger): Promise<DeliveryRun | { email: 'not_configured' }> {
  if (!senders.has(settings)) senders.set(settings, emailSenderFromSettings(settings));
  const sender = senders.get(settings);
  if (!sender) return { email: 'not_configured' };
  return deliverDueEmails(sql, {
    sender,
    publicBaseUrl: settings.NOTIFY_PUBLIC_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`,
    senderName: settings.NOTIFY_EMAIL_SENDER_NAME,
    log,
  });
}
