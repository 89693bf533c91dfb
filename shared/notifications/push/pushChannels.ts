import type { Settings } from '../../config/settings';
import { notificationHubChannel } from '../channels/notificationHubs/notificationHubChannel';
import type { MobilePushChannel, PushChannel } from '../channels/pushChannel';
import { webPushChannel } from '../channels/webPush/webPushChannel';

/** The push channels this deployment has; a missing one leaves its registrations refused and its pushes queued. */
export interface PushChannels {
  web?: { channel: PushChannel; publicKey: string; allowedHosts: readonly string[] };
  mobile?: MobilePushChannel;
}

const built = new WeakMap<Settings, PushChannels>();

/** The channels the settings configure, built once per settings object. */
export function pushChannelsFromSettings(settings: Settings): PushChannels {
  const known = built.get(settings);
  if (known) return known;
  const channels: PushChannels = {};
  const { NOTIFY_WEBPUSH_PUBLIC_KEY: publicKey, NOTIFY_WEBPUSH_PRIVATE_KEY: privateKey, NOTIFY_WEBPUSH_SUBJECT: subject } = settings;
  if (publicKey && privateKey && subject) {
    channels.web = {
      channel: webPushChannel({ subject, publicKey, privateKey }),
      publicKey,
      allowedHosts: settings.NOTIFY_WEBPUSH_ALLOWED_HOSTS,
    };
  }
  if (settings.NOTIFY_PUSH_HUB_CONNECTION && settings.NOTIFY_PUSH_HUB_NAME) {
    channels.mobile = notificationHubChannel({
      connectionString: settings.NOTIFY_PUSH_HUB_CONNECTION,
      hubName: settings.NOTIFY_PUSH_HUB_NAME,
    });
  }
  built.set(settings, channels);
  return channels;
}
