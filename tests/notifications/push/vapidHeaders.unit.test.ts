import { decodeJwt } from 'jose';
import webPush from 'web-push';
import {
  VAPID_RENEW_BEFORE_SECONDS,
  VAPID_TOKEN_SECONDS,
  vapidHeaderCache,
  type VapidKeys,
} from '../../../shared/notifications/channels/webPush/vapidHeaders';

const vapid: VapidKeys = { subject: 'mailto:push@clubs.example.org', ...webPush.generateVAPIDKeys() };
const T0 = Date.parse('2026-11-26T10:00:00Z');

function cache(clock: { now: number }) {
  const signed: string[] = [];
  const header = vapidHeaderCache(
    vapid,
    (audience, keys, expiration) => {
      signed.push(audience);
      return webPush.getVapidHeaders(audience, keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiration).Authorization;
    },
    () => clock.now,
  );
  return { header, signed };
}

const claims = (header: string) => decodeJwt(/^vapid t=([^,]+), k=/.exec(header)?.[1] ?? '');

describe('VAPID header per push service origin', () => {
  it('signs once per origin and reuses the token for every subscription at that push service', () => {
    const clock = { now: T0 };
    const { header, signed } = cache(clock);
    const first = header('https://fcm.googleapis.com/fcm/send/abc');
    expect(header('https://fcm.googleapis.com/fcm/send/def')).toBe(first);
    const mozilla = header('https://updates.push.services.mozilla.com/wpush/v2/xyz');
    expect(mozilla).not.toBe(first);
    expect(signed).toEqual(['https://fcm.googleapis.com', 'https://updates.push.services.mozilla.com']);
    expect(first).toMatch(new RegExp(`, k=${vapid.publicKey}$`));
    expect(claims(first)).toEqual({ aud: 'https://fcm.googleapis.com', sub: vapid.subject, exp: T0 / 1000 + VAPID_TOKEN_SECONDS });
    expect(claims(mozilla).aud).toBe('https://updates.push.services.mozilla.com');
  });

  it('signs a new token once the cached one is within the renewal margin of its expiry, never handing out an expired one', () => {
    const clock = { now: T0 };
    const { header, signed } = cache(clock);
    const first = header('https://push.example.org/a');
    clock.now = T0 + (VAPID_TOKEN_SECONDS - VAPID_RENEW_BEFORE_SECONDS - 1) * 1000;
    expect(header('https://push.example.org/b')).toBe(first);
    clock.now = T0 + (VAPID_TOKEN_SECONDS - VAPID_RENEW_BEFORE_SECONDS) * 1000;
    const renewed = header('https://push.example.org/c');
    expect(renewed).not.toBe(first);
    expect(claims(renewed).exp).toBe(clock.now / 1000 + VAPID_TOKEN_SECONDS);
    expect(signed).toHaveLength(2);
  });
});
