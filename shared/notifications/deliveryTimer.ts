import type { Sql } from '../db/client';
import type { Settings } from '../config/settings';
import type { Logger } from '../log/logger';
import { deliverDuePushes, type PushRun } from './push/deliverPushes';
import { pushChannelsFromSettings } from './push/pushChannels';
import { emailSenderFromSettings } from './channels/email/acsEmailSender';
import { deliverDueEmails, type DeliveryRun } from './channels/email/deliverEmails';
import type { EmailSender } from './channels/email/emailSender';

const senders = new WeakMap<Settings, EmailSender | undefined>();

export type TimerRun = {
  email: DeliveryRun | 'not_configured';
  push: PushRun | 'not_configured';
};

/**
 * One run of the delivery timer: the due emails, then the due pushes. A channel without its
 * configuration (email: no sender address, neither a connection string nor an endpoint; push:
 * neither Web Push keys nor a hub) sends nothing and says so: its rows stay queued until it is
 * configured, rather than failing. `now` is the timer's clock (a test's, to claim only its rows).
 */
export async function runDeliveryTimer(sql: Sql, settings: Settings, log: Logger, now?: () => Date): Promise<TimerRun> {
  if (!senders.has(settings)) senders.set(settings, emailSenderFromSettings(settings));
  const sender = senders.get(settings);
  // parseSettings refuses email without a public base URL, so a sender always has one.
  const publicBaseUrl = settings.NOTIFY_PUBLIC_BASE_URL;
  const email =
    sender && publicBaseUrl
      ? await deliverDueEmails(sql, {
          sender,
          publicBaseUrl,
          senderName: settings.NOTIFY_EMAIL_SENDER_NAME,
          log,
          now,
        })
      : 'not_configured';
  const channels = pushChannelsFromSettings(settings);
  const push = channels.web || channels.mobile ? await deliverDuePushes(sql, { channels, log, now }) : 'not_configured';
  return { email, push };
}
