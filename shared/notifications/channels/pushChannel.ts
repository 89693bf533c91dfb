/** Where a registration receives pushes: a browser (Web Push) or an app through Notification Hubs (APNs, FCM v1). */
export const PUSH_PLATFORMS = ['webpush', 'apns', 'fcmv1'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** One push as every platform gets it: already in the member's language. */
export interface PushMessage {
  title: string;
  body: string;
  /** The member's `push.sound`. */
  sound: boolean;
  /** The inbox entries it stands for, for the app to open (the newest first). */
  notificationIds: string[];
  /**
   * Fixed by the outbox rows it carries: a push service replaces a message with the same topic
   * that it has not delivered yet, so a resend after a crash does not show twice (Web Push Topic).
   */
  collapseKey: string;
}

/** A registration as the senders need it. */
export interface PushTarget {
  id: string;
  userId: string;
  platform: PushPlatform;
  address: string;
  p256dh: string | null;
  auth: string | null;
}

/**
 * What the push service said: `accepted`, or `gone` when it reports the registration expired or
 * unsubscribed (the registration is then removed). Anything else throws DeliveryFailure.
 */
export type PushResult = 'accepted' | 'gone';

export interface PushChannel {
  send(target: PushTarget, message: PushMessage): Promise<PushResult>;
}

/** The mobile side: installations of the Notification Hub, one per registration. */
export interface MobilePushChannel extends PushChannel {
  /** Creates or overwrites the registration's installation; throws DeliveryFailure('permanent') for a token the hub refuses. */
  install(target: PushTarget): Promise<void>;
  uninstall(registrationId: string): Promise<void>;
}
