import { getSql } from '../../../shared/db/client';
import { deliveriesOf } from '../../../shared/notifications/outbox/deliveryLog';
import { MAX_ATTEMPTS, MAX_BACKOFF_MS } from '../../../shared/notifications/outbox/retryPolicy';
import type { NotifyInput } from '../../../shared/notifications/notify';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../../shared/notifications/preferences';
import { savePreferences } from '../../../shared/notifications/preferencesRepository';
import { deliverDuePushes, type PushDeliveryOptions } from '../../../shared/notifications/push/deliverPushes';
import { registerPush } from '../../../shared/notifications/push/pushRegistrations';
import type { PushChannel } from '../../../shared/notifications/channels/pushChannel';
import { newMember, notifyAt, twoInstancesAtOnce } from '../support';
import { apnsToken, fcmToken, usePushWorldOf } from './support';

// Other test files queue rows due around their own clocks; this file's rows are all due in 1995,
// and the worker runs with a 1995 clock, so it claims none of a later clock's rows (the push file
// of 1994 takes turns with this one: usePushWorldOf).
const T0 = new Date('1995-06-14T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const world = usePushWorldOf(1995);

const options = (now: Date, extra: Partial<PushDeliveryOptions> = {}): PushDeliveryOptions => ({
  channels: world().channels,
  now: () => now,
  ...extra,
});

const member = (patch: NotificationPreferencesPatch = {}, language: 'de' | 'en' = 'en') => newMember(patch, { email: null, language });

async function browserOf(userId: string) {
  const subscription = world().browsers.subscribe(world().vapid.publicKey);
  const registration = await registerPush(getSql(), world().channels, userId, { platform: 'webpush', subscription });
  return { subscription, registration };
}

const send = (userId: string, extra: Partial<NotifyInput> = {}, now = T0) => notifyAt(userId, { channels: ['push'], ...extra }, now);

const webPushesOf = (endpoint: string) => world().browsers.pushes.filter((push) => endpoint.endsWith(push.subscriptionId));
const hubPushesOf = (userId: string) => world().hub.pushes.filter((push) => push.userId === userId);

async function pushRows(userId: string) {
  return getSql()<{ status: string; attempts: number; lastError: string | null }[]>`
    select status, attempts, last_error as "lastError" from notification_outbox where user_id = ${userId} and channel = 'push' order by id`;
}

describe('Web Push to browsers (web-push against the push service fake)', () => {
  it('encrypts the push to the subscription, signs it with VAPID, and logs it sent beside the entry', async () => {
    const userId = await member();
    const { subscription, registration } = await browserOf(userId);
    const { id } = await send(userId);
    const run = await deliverDuePushes(getSql(), options(at(1)));
    expect(run).toMatchObject({ pushes: 1, sent: 1 });
    const [push] = webPushesOf(subscription.endpoint);
    // Decrypted by the fake with the subscription's private key, as the browser does.
    expect(push?.payload).toEqual({ title: 'Training moved', body: 'Now at 19:00.', silent: false, notificationIds: [id] });
    expect(push?.vapid).toMatchObject({ aud: world().browsers.origin, sub: 'mailto:push@clubs.example.org' });
    expect(push?.topic).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(push?.ttl).toBeGreaterThan(0);
    expect(await pushRows(userId)).toEqual([{ status: 'sent', attempts: 1, lastError: null }]);
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([expect.objectContaining({ channel: 'push', outcome: 'sent' })]);
    const [stored] = await getSql()<{ lastSentAt: Date | null }[]>`
      select last_sent_at as "lastSentAt" from push_registration where id = ${registration.id}`;
    expect(stored?.lastSentAt).toBeInstanceOf(Date);
  });

  it.each([
    ['withdrawn (410)', 'gone' as const],
    ['expired (404)', 'expired' as const],
  ])('removes a subscription the push service reports %s, and says why nothing was sent', async (_name, how) => {
    const userId = await member();
    const { subscription, registration } = await browserOf(userId);
    world().browsers.withdraw(subscription.endpoint, how);
    const { id } = await send(userId);
    const run = await deliverDuePushes(getSql(), options(at(1)));
    expect(run).toMatchObject({ skipped: 1, removed: 1 });
    expect(await getSql()`select 1 from push_registration where id = ${registration.id}`).toHaveLength(0);
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([
      expect.objectContaining({ channel: 'push', outcome: 'skipped', reason: 'push_registrations_gone' }),
    ]);
  });

  it('sends to the live registrations and removes only the dead one', async () => {
    const userId = await member();
    const live = await browserOf(userId);
    const dead = await browserOf(userId);
    world().browsers.withdraw(dead.subscription.endpoint, 'gone');
    await send(userId);
    expect(await deliverDuePushes(getSql(), options(at(1)))).toMatchObject({ sent: 1, removed: 1 });
    expect(webPushesOf(live.subscription.endpoint)).toHaveLength(1);
    expect(await getSql()`select id from push_registration where user_id = ${userId}`).toHaveLength(1);
  });
});

describe('Notification Hubs to the apps (the SDK against the hub fake)', () => {
  it('registers an installation with APNs and FCM v1 templates and sends through them, with or without sound', async () => {
    const loud = await member();
    const quiet = await member({ push: { sound: false } });
    const iphone = await registerPush(getSql(), world().channels, loud, { platform: 'apns', deviceToken: apnsToken(1) });
    await registerPush(getSql(), world().channels, quiet, { platform: 'fcmv1', deviceToken: fcmToken(1) });
    expect(world().hub.installations.get(iphone.id)).toMatchObject({ platform: 'apns', pushChannel: apnsToken(1), userId: loud });
    const { id } = await send(loud, { title: 'Match "Final"', body: 'Starts at 10:00' });
    await send(quiet);
    expect(await deliverDuePushes(getSql(), options(at(1)))).toMatchObject({ sent: 2 });

    const [apple] = hubPushesOf(loud);
    expect(apple).toMatchObject({ platform: 'apns', template: 'alert' });
    expect(apple?.payload).toEqual({
      aps: { alert: { title: 'Match "Final"', body: 'Starts at 10:00' }, sound: 'default' },
      notificationIds: id,
    });
    expect(apple?.headers['apns-push-type']).toBe('alert');
    const [android] = hubPushesOf(quiet);
    expect(android).toMatchObject({ platform: 'fcmv1', template: 'alertSilent' });
    expect(android?.payload).toMatchObject({ message: { notification: { title: 'Training moved', body: 'Now at 19:00.' } } });
  });

  it('removes a registration whose installation the hub marks expired, and its installation', async () => {
    const userId = await member();
    const phone = await registerPush(getSql(), world().channels, userId, { platform: 'fcmv1', deviceToken: fcmToken(2) });
    await fetch(`${world().hub.endpoint}/_fake/installations/${phone.id}/expire`, { method: 'POST' });
    await send(userId);
    expect(await deliverDuePushes(getSql(), options(at(1)))).toMatchObject({ skipped: 1, removed: 1 });
    expect(await getSql()`select 1 from push_registration where id = ${phone.id}`).toHaveLength(0);
    expect(world().hub.installations.has(phone.id)).toBe(false);
    expect(hubPushesOf(userId)).toHaveLength(0);
  });

  it('retries with backoff while the hub refuses (quota), then sends', async () => {
    const userId = await member();
    await registerPush(getSql(), world().channels, userId, { platform: 'fcmv1', deviceToken: fcmToken(3) });
    await send(userId);
    world().hub.failNextSends(1, 403);
    expect(await deliverDuePushes(getSql(), options(at(1)))).toMatchObject({ retrying: 1 });
    const [row] = await pushRows(userId);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row?.lastError).toMatch(/^notification_hub_403/);
    expect(await deliverDuePushes(getSql(), options(at(1.5)))).toMatchObject({ sent: 0 });
    expect(await deliverDuePushes(getSql(), options(at(3)))).toMatchObject({ sent: 1 });
    expect(hubPushesOf(userId)).toHaveLength(1);
  });

  it(`fails a push after ${MAX_ATTEMPTS} refused attempts with the hub's reason`, async () => {
    const userId = await member();
    await registerPush(getSql(), world().channels, userId, { platform: 'fcmv1', deviceToken: fcmToken(4) });
    await send(userId);
    world().hub.failNextSends(MAX_ATTEMPTS, 403);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) await deliverDuePushes(getSql(), options(at(1 + attempt * 600)));
    const [row] = await pushRows(userId);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(row?.lastError).toMatch(/^notification_hub_403/);
  });
});

describe('throttling by the push services (429/503 with Retry-After)', () => {
  async function parkedFor(userId: string, now: Date) {
    const [row] = await getSql()<{ status: string; lastError: string | null; deliverAfter: Date }[]>`
      select status, last_error as "lastError", deliver_after as "deliverAfter"
      from notification_outbox where user_id = ${userId} and channel = 'push'`;
    return { ...row, waitMs: (row?.deliverAfter.getTime() ?? 0) - now.getTime() };
  }

  it.each([
    { status: 429, retryAfter: '240', waitMs: 240_000 },
    { status: 503, retryAfter: '90', waitMs: 90_000 },
  ])(
    'the hub answering $status with Retry-After $retryAfter parks only that push until then; the others of the batch go out',
    async ({ status, retryAfter, waitMs }) => {
      const [throttled, other] = [await member(), await member()];
      await registerPush(getSql(), world().channels, throttled, { platform: 'fcmv1', deviceToken: fcmToken(200 + status) });
      await registerPush(getSql(), world().channels, other, { platform: 'apns', deviceToken: apnsToken(200 + status) });
      await send(throttled);
      await send(other);
      world().hub.failNextSends(1, status, retryAfter);
      const sendsBefore = world().hub.requests.sends;
      const now = at(1);
      // One member at a time, so the first send (the older row's) is the throttled one.
      expect(await deliverDuePushes(getSql(), options(now, { concurrency: 1 }))).toMatchObject({ pushes: 2, sent: 1, retrying: 1 });
      // One request each: the SDK did not wait the Retry-After out and try again by itself.
      expect(world().hub.requests.sends - sendsBefore).toBe(2);
      expect(hubPushesOf(other)).toHaveLength(1);
      expect(await parkedFor(throttled, now)).toMatchObject({ status: 'pending', waitMs });
      expect((await parkedFor(throttled, now)).lastError).toMatch(new RegExp(`^notification_hub_${status}: `));

      expect(await deliverDuePushes(getSql(), options(new Date(now.getTime() + waitMs - 1000)))).toMatchObject({ pushes: 0 });
      expect(await deliverDuePushes(getSql(), options(new Date(now.getTime() + waitMs)))).toMatchObject({ pushes: 1, sent: 1 });
      expect(hubPushesOf(throttled)).toHaveLength(1);
    },
  );

  it('a browser push service answering 429 parks that push until its Retry-After; the other browser still gets its own', async () => {
    const [throttled, other] = [await member(), await member()];
    const throttledBrowser = await browserOf(throttled);
    const otherBrowser = await browserOf(other);
    await send(throttled);
    await send(other);
    world().browsers.throttleNext(1, '600');
    const now = at(1);
    expect(await deliverDuePushes(getSql(), options(now, { concurrency: 1 }))).toMatchObject({ sent: 1, retrying: 1 });
    expect(webPushesOf(otherBrowser.subscription.endpoint)).toHaveLength(1);
    expect(await parkedFor(throttled, now)).toMatchObject({
      status: 'pending',
      waitMs: 600_000,
      lastError: 'webpush_429: Too Many Requests',
    });
    expect(await deliverDuePushes(getSql(), options(new Date(now.getTime() + 599_000)))).toMatchObject({ pushes: 0 });
    expect(await deliverDuePushes(getSql(), options(new Date(now.getTime() + 600_000)))).toMatchObject({ sent: 1 });
    expect(webPushesOf(throttledBrowser.subscription.endpoint)).toHaveLength(1);
  });

  it.each([
    { channel: 'web push', retryAfter: '31536000' },
    { channel: 'hub', retryAfter: 'Fri, 31 Dec 9999 23:59:59 GMT' },
  ])('an absurd Retry-After ($channel: $retryAfter) parks the push no longer than the longest backoff', async ({ channel, retryAfter }) => {
    const userId = await member();
    if (channel === 'hub') {
      await registerPush(getSql(), world().channels, userId, { platform: 'fcmv1', deviceToken: fcmToken(300) });
      world().hub.failNextSends(1, 429, retryAfter);
    } else {
      await browserOf(userId);
      world().browsers.throttleNext(1, retryAfter);
    }
    await send(userId);
    const now = at(1);
    expect(await deliverDuePushes(getSql(), options(now))).toMatchObject({ retrying: 1 });
    expect(await parkedFor(userId, now)).toMatchObject({ status: 'pending', waitMs: MAX_BACKOFF_MS });
  });
});

describe('what a member gets', () => {
  it('push switched off after queueing: nothing is sent, the log says push_disabled', async () => {
    const userId = await member();
    const { subscription } = await browserOf(userId);
    const { id } = await send(userId);
    await savePreferences(getSql(), userId, mergePreferences(defaultPreferences(), { push: { enabled: false } }), 'Europe/Berlin');
    await deliverDuePushes(getSql(), options(at(1)));
    expect(webPushesOf(subscription.endpoint)).toHaveLength(0);
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([
      expect.objectContaining({ outcome: 'skipped', reason: 'push_disabled' }),
    ]);
  });

  it('no registration: skipped with no_push_registration', async () => {
    const userId = await member();
    const { id } = await send(userId);
    await deliverDuePushes(getSql(), options(at(1)));
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([
      expect.objectContaining({ outcome: 'skipped', reason: 'no_push_registration' }),
    ]);
  });

  it("an unexpected error in one member's push is that push's transient failure; the other member still gets theirs", async () => {
    const broken = await member();
    const { registration } = await browserOf(broken);
    const fine = await member();
    const { subscription } = await browserOf(fine);
    await send(broken);
    await send(fine);
    const web = world().channels.web!;
    const failing: PushChannel = {
      send: (target, message) =>
        target.id === registration.id ? Promise.reject(new TypeError('not a push service answer')) : web.channel.send(target, message),
    };
    await deliverDuePushes(getSql(), options(at(1), { channels: { ...world().channels, web: { ...web, channel: failing } } }));
    expect(await pushRows(broken)).toEqual([{ status: 'pending', attempts: 1, lastError: 'internal_error: TypeError' }]);
    expect(await pushRows(fine)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
    expect(webPushesOf(subscription.endpoint)).toHaveLength(1);
  });

  it.each([
    ['de' as const, '5 neue Benachrichtigungen', 'und 2 weitere'],
    ['en' as const, '5 new notifications', 'and 2 more'],
  ])('more than three due at once become one push in the member language (%s)', async (language, title, more) => {
    const userId = await member({}, language);
    const { subscription } = await browserOf(userId);
    for (const name of ['A', 'B', 'C', 'D', 'E']) await send(userId, { title: name });
    expect(await deliverDuePushes(getSql(), options(at(1)))).toMatchObject({ pushes: 1, sent: 5 });
    const pushes = webPushesOf(subscription.endpoint);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.payload).toMatchObject({ title, body: `A · B · C · ${more}` });
    expect((pushes[0]?.payload as { notificationIds: string[] }).notificationIds).toHaveLength(5);
  });
});

describe('two delivery instances racing', () => {
  it('send each push once, asserted at the fakes', async () => {
    const members = await Promise.all(
      Array.from({ length: 24 }, async (_, index) => {
        const userId = await member();
        if (index % 2 === 0) return { userId, browser: (await browserOf(userId)).subscription.endpoint };
        await registerPush(getSql(), world().channels, userId, { platform: 'fcmv1', deviceToken: fcmToken(100 + index) });
        return { userId, browser: undefined };
      }),
    );
    for (const { userId } of members) await send(userId);
    await twoInstancesAtOnce(() => deliverDuePushes(getSql(), options(at(1), { batch: 3, concurrency: 2 })), 24);
    for (const { userId, browser } of members) {
      if (browser) expect(webPushesOf(browser)).toHaveLength(1);
      else expect(hubPushesOf(userId)).toHaveLength(1);
    }
  });
});
