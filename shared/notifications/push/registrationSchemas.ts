import { ECDH } from 'node:crypto';
import * as v from 'valibot';
import { cursorCodec, cursorParameter } from '../../paging/cursor';
import { cursorPageSchema } from '../../paging/cursorPage';
import { pageLimit } from '../../paging/limit';
import { PUSH_PLATFORMS } from '../channels/pushChannel';

/** Most registrations a member keeps; registering one more drops their oldest (docs/notifications.md). */
export const MAX_REGISTRATIONS_PER_USER = 10;
export const DEFAULT_REGISTRATION_PAGE = 20;
export const MAX_REGISTRATION_PAGE = 50;

/** base64url without padding that decodes to `bytes` bytes (or at least `bytes` with `atLeast`). */
const base64UrlKey = (bytes: number, atLeast: boolean, message: string) =>
  v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_-]{1,200}={0,2}$/, message),
    v.check((value) => {
      const length = Buffer.from(value, 'base64url').length;
      return atLeast ? length >= bytes && length <= 64 : length === bytes;
    }, message),
  );

/**
 * A key of the right length may still be no point on P-256 (a browser never sends one, a forged
 * request may): encrypting to it fails at every delivery, so it is refused at registration.
 */
const onP256 = (message: string) =>
  v.check<string, string>((value) => {
    try {
      ECDH.convertKey(Buffer.from(value, 'base64url'), 'prime256v1');
      return true;
    } catch {
      return false;
    }
  }, message);

/**
 * `PushSubscription.toJSON()` as a browser gives it (`pushManager.subscribe` with the service's
 * VAPID public key): the push service's endpoint (https) and the keys the message is encrypted to.
 */
const WebPushSubscriptionSchema = v.object({
  endpoint: v.pipe(
    v.string(),
    v.maxLength(2048, 'must be at most 2048 characters'),
    v.url('must be a URL'),
    v.startsWith('https://', 'must be an https URL'),
  ),
  expirationTime: v.optional(v.nullable(v.number())),
  keys: v.object({
    p256dh: v.pipe(
      base64UrlKey(65, false, 'must be the base64url P-256 public key of the subscription (65 bytes)'),
      onP256('must be a public key on the P-256 curve'),
    ),
    auth: base64UrlKey(16, true, 'must be the base64url authentication secret of the subscription (16 bytes)'),
  }),
});

const APNS_TOKEN = /^[0-9a-fA-F]{64,200}$/;

/**
 * A browser sends `{ platform: "webpush", subscription }`, an app `{ platform: "apns" | "fcmv1",
 * deviceToken }`. One object (not a union) so that a missing or wrong field is named in the 400:
 * APNs device tokens are hex (32 bytes today, longer allowed), FCM registration tokens opaque text.
 */
export const RegisterBodySchema = v.pipe(
  v.object({
    platform: v.picklist(PUSH_PLATFORMS, 'must be webpush, apns or fcmv1'),
    subscription: v.optional(WebPushSubscriptionSchema),
    deviceToken: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_:.-]{20,4096}$/, 'must be the device token the push service issued'))),
  }),
  v.forward(
    v.partialCheck(
      [['platform'], ['subscription']],
      (input) => (input.platform === 'webpush') === (input.subscription !== undefined),
      'is required for webpush and only there',
    ),
    ['subscription'],
  ),
  v.forward(
    v.partialCheck(
      [['platform'], ['deviceToken']],
      (input) => (input.platform !== 'webpush') === (input.deviceToken !== undefined),
      'is required for apns and fcmv1 and only there',
    ),
    ['deviceToken'],
  ),
  v.forward(
    v.partialCheck(
      [['platform'], ['deviceToken']],
      (input) => input.platform !== 'apns' || APNS_TOKEN.test(input.deviceToken ?? ''),
      'must be the hex APNs device token',
    ),
    ['deviceToken'],
  ),
);
export type RegisterBody = v.InferOutput<typeof RegisterBodySchema>;

export const RegistrationSchema = v.object({
  id: v.string(),
  platform: v.picklist(PUSH_PLATFORMS),
  /** Where it goes, shortened so the list never shows the whole secret-bearing URL or token. */
  label: v.string(),
  createdAt: v.string(),
  lastSentAt: v.nullable(v.string()),
});
export type Registration = v.InferOutput<typeof RegistrationSchema>;

export const RegistrationPageSchema = cursorPageSchema(RegistrationSchema);

export const registrationCursor = cursorCodec('notifications.pushRegistrations', v.tuple([v.pipe(v.string(), v.regex(/^\d{1,19}$/))]));

export const RegistrationListQuerySchema = v.object({
  limit: pageLimit(DEFAULT_REGISTRATION_PAGE, MAX_REGISTRATION_PAGE),
  cursor: cursorParameter(registrationCursor),
});

export const RegistrationIdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

export const WebPushKeySchema = v.object({ publicKey: v.nullable(v.string()) });
