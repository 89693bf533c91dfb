import { Agent } from 'node:https';
import { headerLookup, retryAfterMs, THROTTLING_STATUSES } from '../retryAfter';
import { DeliveryFailure } from '../../outbox/retryPolicy';
import { loadPushSdk } from '../loadPushSdk';
import type { PushChannel, PushMessage, PushTarget } from '../pushChannel';
import { vapidHeaderCache, type VapidKeys } from './vapidHeaders';

/** Hours a push service keeps trying a browser that is offline; after that the push is dropped. */
const TTL_SECONDS = 24 * 3600;

/**
 * Web Push (RFC 8030) to browser subscriptions, encrypted to the subscription's keys (RFC 8291,
 * aes128gcm) and signed with the service's VAPID key (RFC 8292), with the `web-push` package.
 * The decrypted payload the service worker reads is `webPushPayload(message)`. The package loads
 * with the first push (loadPushSdk.ts), not when the app starts.
 */
export function webPushChannel(vapid: VapidKeys): PushChannel {
  // Connections to a push service stay open between pushes (TLS set-up once per connection).
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let authorization: ((endpoint: string) => string) | undefined;
  return {
    async send(target: PushTarget, message: PushMessage) {
      if (!target.p256dh || !target.auth) throw new DeliveryFailure('permanent', 'webpush_subscription_without_keys');
      const { webPush, WebPushError } = await loadPushSdk();
      authorization ??= vapidHeaderCache(
        vapid,
        (audience, keys, expiration) =>
          webPush.getVapidHeaders(audience, keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiration).Authorization,
      );
      try {
        await webPush.sendNotification(
          { endpoint: target.address, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(webPushPayload(message)),
          {
            // No vapidDetails: the token is signed once per push service origin (vapidHeaders.ts), not by web-push per call.
            headers: { Authorization: authorization(target.address) },
            agent,
            TTL: TTL_SECONDS,
            urgency: 'normal',
            topic: message.collapseKey,
            contentEncoding: 'aes128gcm',
            timeout: 10_000,
          },
        );
        return 'accepted';
      } catch (error) {
        if (error instanceof WebPushError) {
          // RFC 8030 §7.3: 404 for an expired subscription; push services answer 410 for one the user withdrew.
          if (error.statusCode === 404 || error.statusCode === 410) return 'gone';
          const permanent = error.statusCode === 400 || error.statusCode === 413;
          // A push service that throttles (429, RFC 8030 §8.4; or 503) may say when to come back.
          const wait = THROTTLING_STATUSES.includes(error.statusCode) ? retryAfterMs(headerLookup(error.headers), new Date()) : undefined;
          throw new DeliveryFailure(
            permanent ? 'permanent' : 'transient',
            `webpush_${error.statusCode}: ${String(error.body ?? '').slice(0, 200)}`,
            wait,
          );
        }
        throw new DeliveryFailure('transient', `webpush_error: ${(error as { code?: string }).code ?? (error as Error).name}`);
      }
    },
  };
}

/** The JSON the service worker's `push` event receives (`event.data.json()`). */
export function webPushPayload(message: PushMessage) {
  return { title: message.title, body: message.body, silent: !message.sound, notificationIds: message.notificationIds };
}
